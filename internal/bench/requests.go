package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// leadBody is the lead every lead step sends: the README's example plus a service, so that
// validation normalises an email and a phone number as it does for a real lead.
const leadBody = `{"first_name":"Kovács Péter","email":"peter.kovacs@example.hu","phone":"+36 30 123 4567","service":"Napelem telepítés"}`

// The stored form of leadBody, for the database ceiling's insert: what lead.Input.Check makes
// of it.
const (
	leadFirstName = "Kovács Péter"
	leadEmail     = "peter.kovacs@example.hu"
	leadPhone     = "+36 30 123 4567"
	leadPhoneE164 = "+36301234567"
	leadService   = "Napelem telepítés"
)

// chatMessages are what the chat step's visitors write, in turn. None holds a name, an email or
// a phone number, so no message creates a lead and every message runs the same SQL as the
// ceiling's script.
var chatMessages = []string{
	"Mennyibe kerül egy napelem rendszer?",
	"Milyen szolgáltatásaitok vannak?",
	"Mikor vagytok nyitva?",
	"Érdekelne egy ajánlat a tetőre.",
}

// sessionMessages is how many messages a chat step's session gets before its connection starts
// a new one, well under the service's 50 per session.
const sessionMessages = 20

// browserOrigin is the page the widget's requests come from.
const browserOrigin = "https://www.example.hu"

// leadRequest is POST /api/v1/leads with a private key, as a company's backend sends it.
func leadRequest(host, key string) []byte {
	return []byte(fmt.Sprintf("POST /api/v1/leads HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"X-Api-Key: %s\r\nContent-Length: %d\r\n\r\n%s", host, key, len(leadBody), leadBody))
}

// configRequest is the widget's GET /api/embed/config with a public key.
func configRequest(host, key string) []byte {
	return []byte(fmt.Sprintf("GET /api/embed/config?api_key=%s HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\n\r\n",
		key, host, browserOrigin))
}

// eventRequest is the widget's beacon, POST /api/embed/events as sendBeacon sends it (text/plain).
func eventRequest(host, key string) []byte {
	body := `{"api_key":"` + key + `","type":"shown"}`
	return []byte("POST /api/embed/events HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: text/plain;charset=UTF-8\r\nOrigin: " +
		browserOrigin + "\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
}

// chatRequest is the widget's POST /api/embed/chat, with a message id as the widget sends one.
func chatRequest(host, key, session, messageID, message string) []byte {
	body, _ := json.Marshal(struct {
		APIKey    string `json:"api_key"`
		SessionID string `json:"session_id"`
		MessageID string `json:"message_id"`
		Message   string `json:"message"`
	}{key, session, messageID, message})
	return []byte("POST /api/embed/chat HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nOrigin: " +
		browserOrigin + "\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + string(body))
}

// roundRobin sends each connection's requests through reqs in turn, the connections starting
// at different places, so that every request of a round goes to another company.
func roundRobin(reqs [][]byte) func(conn, seq int) []byte {
	return func(conn, seq int) []byte { return reqs[(conn+seq)%len(reqs)] }
}

type rawResponse struct {
	status int
	body   []byte
}

// doRaw sends one raw request on a connection of its own.
func doRaw(addr string, req []byte) (rawResponse, error) {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return rawResponse{}, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := conn.Write(req); err != nil {
		return rawResponse{}, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return rawResponse{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return rawResponse{status: resp.StatusCode, body: body}, err
}
