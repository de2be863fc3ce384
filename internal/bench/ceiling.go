package bench

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/google/uuid"
)

// ceilingLead is the lead request body as the ceiling decodes it: the API's fields, no checks.
type ceilingLead struct {
	APIKey       string            `json:"api_key,omitempty"`
	FirstName    string            `json:"first_name"`
	LastName     *string           `json:"last_name,omitempty"`
	Email        string            `json:"email"`
	Phone        *string           `json:"phone,omitempty"`
	Service      *string           `json:"service,omitempty"`
	Details      *string           `json:"details,omitempty"`
	Source       *string           `json:"source,omitempty"`
	ReferralData map[string]string `json:"referral_data,omitempty"`
}

type ceilingCreated struct {
	LeadID    uuid.UUID `json:"lead_id"`
	OverLimit bool      `json:"over_limit"`
	Success   bool      `json:"success"`
}

// ceilingHandler is the HTTP ceiling: the least a Go net/http server does for a lead, decoding
// the body and answering 201 with a lead id, no database and no middleware.
func ceilingHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/leads", func(w http.ResponseWriter, r *http.Request) {
		var l ceilingLead
		if err := json.NewDecoder(r.Body).Decode(&l); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(ceilingCreated{LeadID: uuid.New(), Success: true})
	})
	return mux
}

// serveCeiling serves the HTTP ceiling on addr until ctx ends; the runner starts it as a
// process of its own so that its CPU time and memory are its own.
func serveCeiling(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: ceilingHandler(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
