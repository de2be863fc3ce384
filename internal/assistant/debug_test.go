package assistant

import (
	"fmt"
	"os"
	"testing"
)

func TestDebugQuery(t *testing.T) {
	msg := os.Getenv("Q")
	if msg == "" {
		t.Skip()
	}
	data, _ := os.ReadFile(os.Getenv("P"))
	p, err := ParseProfile(data)
	if err != nil {
		t.Fatal(err)
	}
	q := newQuery(msg, Contact{})
	for _, qt := range q.terms {
		fmt.Printf("term %q stems %q w %.1f concepts %b\n", qt.fold, qt.stems, qt.weight, qt.concepts)
	}
	ss := score(facts(p), q)
	for _, s := range ss {
		for j, h := range s.hit {
			if h > 0 {
				best := ""
				for _, k := range append(append([]term{}, s.keys...), s.body...) {
					if match(q.terms[j].term, k) > 0 {
						best += " " + k.fold
					}
				}
				fmt.Printf("fact %d %q%q: term %q hit %.2f strong %v via%s\n", s.kind, s.faq.Question, s.service.Name+s.value[:min(20, len(s.value))], q.terms[j].fold, h, s.strongAt[j], best)
			}
		}
	}
	fmt.Println("explained", explained(ss, q))
}
