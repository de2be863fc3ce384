// Command pgshared runs a command beside one throwaway PostgreSQL cluster, with
// LEADCHAT_TEST_DATABASE_URL pointing at it. `make test-fast` runs go test under it, so that
// the test processes of its packages share one server instead of each running initdb and
// starting and stopping a server of its own, which cost each package some 2 s of CPU.
//
//	go run ./internal/postgres/pgtest/pgshared go test ./...
//
// With LEADCHAT_TEST_DATABASE_URL already set, it runs the command against that server.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/leadchat/leadchat/internal/postgres/pgtest"
)

// maxConns leaves room for the services of four packages' parallel tests at once.
const maxConns = 800

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: pgshared command [argument...]")
		return 2
	}
	// Ctrl-C and SIGTERM reach the command too, in the same process group; this process waits
	// for the command to end, then stops the server. (A caught signal, unlike an ignored one,
	// is not passed on to the command.)
	signal.Notify(make(chan os.Signal, 1), os.Interrupt, syscall.SIGTERM)
	if os.Getenv(pgtest.EnvURL) != "" {
		return runCommand(args, nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	dsn, stop, err := pgtest.Shared(ctx, io.Discard, maxConns)
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pgshared: the tests need PostgreSQL: %v\n", err)
		return 1
	}
	code := runCommand(args, []string{pgtest.EnvURL + "=" + dsn})
	if err := stop(); err != nil {
		fmt.Fprintf(os.Stderr, "pgshared: stopping PostgreSQL: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// runCommand runs args with env added to this process's environment and returns its exit code.
func runCommand(args, env []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), env...)
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return max(exit.ExitCode(), 1)
	case err != nil:
		fmt.Fprintf(os.Stderr, "pgshared: %v\n", err)
		return 1
	}
	return 0
}
