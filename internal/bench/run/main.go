// Command run is `make bench`: it measures leadchat against the machine's own ceilings; see
// package bench.
package main

import (
	"os"

	"github.com/leadchat/leadchat/internal/bench"
)

func main() { os.Exit(bench.Main(os.Args[1:])) }
