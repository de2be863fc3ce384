// Package leadclient is the Go client of the leadchat API: besides the types and the low-level
// Client generated from api/openapi.yaml, it offers a small hand-written layer for
// integrators.
//
// New builds an SDK from the service's base URL and a private key. SDK.CreateLead sends a lead
// with an automatic Idempotency-Key and retries timeouts, network errors, 5xx and 429 answers
// with that same key, so a retry can never store the lead twice. Every answer that is not a
// success becomes an *APIError carrying the HTTP status and the stable error code; match on
// the code with IsCode or errors.As, never on the Hungarian message. SDK.ListLeads walks the
// company's leads page by page as an iterator; GetLead, LeadMessages, SetLeadStatus and
// DeleteLead read and manage one lead.
//
// The names Client, ClientOption, WithHTTPClient and Error belong to the generated code, which
// is why the hand-written client is called SDK, its HTTP-client option WithHTTP and its error
// type APIError.
package leadclient
