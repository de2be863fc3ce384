// Package portman is the contract run by tools this project did not write: Portman generates
// contract and variation tests from api/openapi.yaml (configured by api/portman.yaml) and Newman
// runs them against the whole service on a fresh database. Its test is its only content; `make
// contract` runs it alone, and `go test ./...` with the rest. It needs node and the tools that
// `make portman` installs, and skips only when LEADCHAT_TEST_SKIP lists node.
package portman
