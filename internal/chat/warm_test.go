package chat

import (
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/leadchat/leadchat/internal/assistant/morph"
)

// TestNewWarmsLanguageData checks, in a fresh process where nothing has loaded the assistant's
// language data yet, that building the chat service loads it: reading it afterwards allocates
// (nearly) nothing, where loading it allocates hundreds of thousands of objects.
func TestNewWarmsLanguageData(t *testing.T) {
	if os.Getenv("LEADCHAT_WARM_CHILD") == "1" {
		New(nil, nil, nil)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		morph.Load()
		runtime.ReadMemStats(&after)
		if n := after.Mallocs - before.Mallocs; n > 100 {
			t.Fatalf("the first turn would load the language data: %d allocations after New", n)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNewWarmsLanguageData$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LEADCHAT_WARM_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
