package user

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// DeviceLifetime is how long a device cookie is honoured after the login that issued it.
const DeviceLifetime = 180 * 24 * time.Hour

// Device is a browser that has logged in to an account before, as its signed cookie tells.
// Its failed logins count against the device rather than the account, so guesses from
// elsewhere cannot lock the account's owner out of their own browser.
type Device struct {
	UserID uuid.UUID
	// ID is random per issued cookie: the device's own failures are counted under it.
	ID string
}

// Devices issues and checks device cookies: an HMAC-SHA256 under a server secret over the
// user's id, a random device id and the issue time. Nothing is stored; a cookie that does not
// verify, or is older than DeviceLifetime, is no device.
type Devices struct {
	key []byte
}

// NewDevices signs with secret, which every instance must share and which should be 32 random
// bytes.
func NewDevices(secret []byte) Devices { return Devices{key: secret} }

// Issue returns a new device cookie's value for a user who has just logged in.
func (d Devices) Issue(userID uuid.UUID, now time.Time) string {
	payload := userID.String() + "." + rand.Text() + "." + strconv.FormatInt(now.Unix(), 10)
	return payload + "." + d.sign(payload)
}

// Check verifies a device cookie's value; false for anything not issued by Issue under the
// same secret within DeviceLifetime.
func (d Devices) Check(value string, now time.Time) (Device, bool) {
	if len(d.key) == 0 || len(value) > 200 {
		return Device{}, false
	}
	i := strings.LastIndexByte(value, '.')
	if i < 0 {
		return Device{}, false
	}
	payload, mac := value[:i], value[i+1:]
	if !hmac.Equal([]byte(mac), []byte(d.sign(payload))) {
		return Device{}, false
	}
	parts := strings.Split(payload, ".")
	if len(parts) != 3 {
		return Device{}, false
	}
	id, err1 := uuid.Parse(parts[0])
	issued, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || now.Sub(time.Unix(issued, 0)) > DeviceLifetime {
		return Device{}, false
	}
	return Device{UserID: id, ID: parts[1]}, true
}

func (d Devices) sign(payload string) string {
	m := hmac.New(sha256.New, d.key)
	m.Write([]byte("leadchat device cookie\x00" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// deviceKey is what a device's failed logins are counted under.
func deviceKey(d Device) [32]byte { return sha256.Sum256([]byte("device\x00" + d.ID)) }

// ClientKey is what a client address's failed logins and password sets are counted under.
func ClientKey(client string) [32]byte { return sha256.Sum256([]byte("client\x00" + client)) }
