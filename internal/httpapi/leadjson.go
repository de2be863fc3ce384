package httpapi

import (
	"net/http"
	"sync"

	"github.com/leadchat/leadchat/gen/api"
	"github.com/leadchat/leadchat/internal/lead"
	"github.com/leadchat/leadchat/internal/leadjson"
)

// The read calls write the contract's Lead object (api.StoredLead) with leadjson, and a page
// around it by hand, byte for byte what encoding/json writes of the generated types (a final
// newline included), which TestLeadJSONIsEncodingJSONs and FuzzLeadJSON hold them to.

// leadListJSON answers a page of leads (listLeads 200) read with filter, which the next page's
// cursor is bound to.
type leadListJSON struct {
	page   *lead.Page
	filter lead.Filter
	// buffers, when set, lends the body's buffer: a page of 50 leads is some 25 KiB, a fifth
	// of what a list request allocates.
	buffers *sync.Pool
}

// pooledBody is the largest body buffer given back to the pool: a page of limits.ListMax
// leads with long notes should not stay in memory for every later page.
const pooledBody = 256 << 10

func (r leadListJSON) VisitListLeadsResponse(w http.ResponseWriter) error {
	if r.buffers == nil {
		return writeJSON(w, appendLeadList(make([]byte, 0, 64+512*len(r.page.Leads)), r.page, r.filter))
	}
	b, _ := r.buffers.Get().(*[]byte)
	if b == nil {
		b = new([]byte)
	}
	*b = appendLeadList((*b)[:0], r.page, r.filter)
	err := writeJSON(w, *b) // the writer copies it, or has sent it, by the time Write returns
	if cap(*b) <= pooledBody {
		r.buffers.Put(b)
	}
	return err
}

// leadJSON answers one lead (getLead and updateLead 200).
type leadJSON struct{ lead *lead.Stored }

func (r leadJSON) VisitGetLeadResponse(w http.ResponseWriter) error {
	return writeJSON(w, append(leadjson.Append(make([]byte, 0, 512), r.lead), '\n'))
}

func (r leadJSON) VisitUpdateLeadResponse(w http.ResponseWriter) error {
	return r.VisitGetLeadResponse(w)
}

func writeJSON(w http.ResponseWriter, body []byte) error {
	return writeJSONStatus(w, http.StatusOK, body)
}

// jsonContentType is the Content-Type of the bodies written here, one slice for every response:
// setting a header replaces its slice and never writes into it.
var jsonContentType = []string{"application/json"}

// writeJSONStatus writes a JSON body, in one Write, with the status and Content-Type the
// generated responses send.
func writeJSONStatus(w http.ResponseWriter, status int, body []byte) error {
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}

// appendLeadList appends api.LeadList's JSON of a page read with f, and the newline
// json.Encoder ends with.
func appendLeadList(b []byte, p *lead.Page, f lead.Filter) []byte {
	b = append(b, `{"data":[`...)
	for i := range p.Leads {
		if i > 0 {
			b = append(b, ',')
		}
		b = leadjson.Append(b, &p.Leads[i])
	}
	b = append(b, `],"next_cursor":`...)
	if p.Next != nil {
		b = leadjson.AppendString(b, p.Next.Text(f))
	} else {
		b = append(b, "null"...)
	}
	return append(b, "}\n"...)
}

// The generated response types these stand in for.
var (
	_ api.ListLeadsResponseObject  = leadListJSON{}
	_ api.GetLeadResponseObject    = leadJSON{}
	_ api.UpdateLeadResponseObject = leadJSON{}
)
