// Package soak is the fault test of the whole service: clients create leads through the real
// binary while it is killed with SIGKILL and restarted and while its database is restarted,
// then the database is checked against every answer the clients received. The package holds
// only the test, built with the tag soak; `make soak-short` (part of `make test`) and `make soak`
// run it.
package soak
