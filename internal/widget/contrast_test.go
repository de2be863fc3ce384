package widget

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ContrastVectors are testdata/contrast.json: the vectors both this package and embed.js (in the
// browser test, which reads them through LoadContrastVectors) are checked against.
type ContrastVectors struct {
	Ratios []struct {
		A, B  string
		Ratio float64
	}
	Themes []ThemeVector
}

// ThemeVector is a theme and the palette the widget must paint it with.
type ThemeVector struct {
	Name, Primary, Accent string
	Want                  struct {
		Primary   string
		OnPrimary string `json:"on_primary"`
		Ring      string
	}
	Adjusted []string // "text", "ring"
}

// LoadContrastVectors reads testdata/contrast.json.
func LoadContrastVectors(t testing.TB) ContrastVectors {
	t.Helper()
	b, err := os.ReadFile("testdata/contrast.json")
	if err != nil {
		t.Fatal(err)
	}
	var v ContrastVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("testdata/contrast.json: %v", err)
	}
	return v
}

func TestContrastVectors(t *testing.T) {
	v := LoadContrastVectors(t)
	for _, r := range v.Ratios {
		got, err := Contrast(r.A, r.B)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-r.Ratio) > 0.01 {
			t.Errorf("Contrast(%s, %s) = %.4f, want %.2f", r.A, r.B, got, r.Ratio)
		}
	}
	for _, th := range v.Themes {
		t.Run(th.Name, func(t *testing.T) {
			p, adj, err := NewPalette(th.Primary, th.Accent)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(Palette{th.Want.Primary, th.Want.OnPrimary, th.Want.Ring}, p); diff != "" {
				t.Errorf("palette (-want +got):\n%s", diff)
			}
			moved := []string{}
			for _, a := range adj {
				moved = append(moved, a.For)
			}
			if diff := cmp.Diff(th.Adjusted, moved); diff != "" {
				t.Errorf("adjusted (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPaletteReachesTheThresholds tries colours across the whole cube: the palette always reaches
// its contrasts, leaves a colour that already does alone, and says when it moved one.
func TestPaletteReachesTheThresholds(t *testing.T) {
	surface := must(parseHex(Surface))
	for r := 0; r < 256; r += 15 {
		for g := 0; g < 256; g += 15 {
			for b := 0; b < 256; b += 15 {
				c := rgb{r, g, b}
				p, adj, err := NewPalette(c.hex(), "")
				if err != nil {
					t.Fatal(err)
				}
				primary, ring := must(parseHex(p.Primary)), must(parseHex(p.Ring))
				if got := contrast(primary, must(parseHex(p.OnPrimary))); got < MinTextContrast {
					t.Errorf("%s: text on %s is %.2f:1", c.hex(), p.Primary, got)
				}
				if got := contrast(ring, surface); got < MinNonTextContrast {
					t.Errorf("%s: ring %s is %.2f:1 on %s", c.hex(), p.Ring, got, Surface)
				}
				wantText, wantRing := textOn(c) < MinTextContrast, contrast(c, surface) < MinNonTextContrast
				if (p.Primary != c.hex()) != wantText || (p.Ring != c.hex()) != wantRing || len(adj) != btoi(wantText)+btoi(wantRing) {
					t.Errorf("%s: palette %+v, adjustments %v", c.hex(), p, adj)
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestAdjustmentString(t *testing.T) {
	_, adj, err := NewPalette("#8B5CF6", "#FFD700")
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(adj)
	want := "[primary colour #8B5CF6: text and icons on it reach 4.23:1 at best, 4.50:1 needed; the widget uses #8558EC instead " +
		"accent colour #FFD700: focus rings and borders drawn in it on the panel's #F5F6F8 reach 1.29:1 at best, 3.00:1 needed; the widget uses #A68C00 instead]"
	if got != want {
		t.Errorf("adjustments:\n got %s\nwant %s", got, want)
	}
}

func TestFormatRatioNeverRoundsUp(t *testing.T) {
	for r, want := range map[float64]string{4.499: "4.49:1", 4.5: "4.50:1", 21: "21.00:1", 2.5367: "2.53:1"} {
		if got := FormatRatio(r); got != want {
			t.Errorf("FormatRatio(%v) = %s, want %s", r, got, want)
		}
	}
}
