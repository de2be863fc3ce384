package leadclient_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	leadclient "github.com/leadchat/leadchat/clients/go"
)

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name    string
		baseURL string
		key     string
		opts    []leadclient.Option
	}{
		{"relative URL", "leadchat.example", privateKey, nil},
		{"bad scheme", "ftp://leadchat.example", privateKey, nil},
		{"unparsable URL", "http://[::1", privateKey, nil},
		{"empty key", "https://leadchat.example", "", nil},
		{"negative retries", "https://leadchat.example", privateKey, []leadclient.Option{leadclient.WithRetries(-1)}},
		{"negative timeout", "https://leadchat.example", privateKey, []leadclient.Option{leadclient.WithTimeout(-time.Second)}},
	} {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			if _, err := leadclient.New(tc.baseURL, tc.key, tc.opts...); err == nil {
				t.Error("no error")
			}
		})
	}

	t.Run("base URL with a path prefix", func(t *testing.T) {
		srv, s := serve(t, created(leadID))
		custom := &http.Client{Transport: http.DefaultTransport}
		lc := newSDK(t, srv.URL+"/leadchat", leadclient.WithHTTP(custom))
		if _, err := lc.CreateLead(context.Background(), minimal); err != nil {
			t.Fatal(err)
		}
		if p := s.requests()[0].path; p != "/leadchat/api/v1/leads" {
			t.Errorf("path = %q", p)
		}
	})
}
