// Package soak holds the load runs of the whole service against the real binary and a database
// of their own. The fault test: clients create leads while the server is killed with SIGKILL
// and restarted and while its database is restarted, then the database is checked against
// every answer the clients received (`make soak-short`, part of `make test`, and `make soak`).
// The hostile run: the attacks tried against the service from outside run while real leads
// flow, and the server's memory, the stored leads and the key lookups are held to their bounds
// (`make hostile-short`, part of `make test`, and `make hostile`). The package holds only tests,
// built with the tag soak.
package soak
