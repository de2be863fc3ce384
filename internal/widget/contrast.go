package widget

import (
	"fmt"
	"math"
	"strconv"
)

// The colours the widget paints beside a company's own, and the contrast each use needs (WCAG 2.1:
// 4.5:1 for text, 3:1 for icons, focus rings and the borders that show a control). embed.js derives
// its colours from a theme by the same rules; testdata/contrast.json holds the vectors that the Go
// test and the browser test check both against, so the two cannot drift apart unnoticed.
const (
	// LightText and DarkText are the two colours of text and icons on a company colour; the one
	// that contrasts more is used.
	LightText = "#FFFFFF"
	DarkText  = "#111827"
	// Surface is the darkest of the panel's light surfaces that a focus ring or a quick reply's
	// border sits on (the messages' background); the others are lighter, so 3:1 here is 3:1 there.
	Surface = "#F5F6F8"

	MinTextContrast    = 4.5
	MinNonTextContrast = 3.0
)

// Palette is what the widget paints a theme with.
type Palette struct {
	// Primary fills the bubble, the header, the visitor's messages and the send and submit buttons.
	Primary string
	// OnPrimary is the text and icon colour on Primary.
	OnPrimary string
	// Ring draws focus rings and quick-reply borders on the panel's light surfaces.
	Ring string
}

// Adjustment says that a theme colour is shown in another shade to reach a contrast.
type Adjustment struct {
	Colour   string  // the theme colour: "primary" or "accent"
	For      string  // "text" (the colour behind text and icons) or "ring" (focus rings and borders)
	From, To string  // #RRGGBB
	Best     float64 // the best contrast From reached
	Need     float64 // the contrast To reaches at least
}

func (a Adjustment) String() string {
	use := "text and icons on it reach"
	if a.For == "ring" {
		use = "focus rings and borders drawn in it on the panel's " + Surface + " reach"
	}
	return fmt.Sprintf("%s colour %s: %s %s at best, %s needed; the widget uses %s instead",
		a.Colour, a.From, use, FormatRatio(a.Best), FormatRatio(a.Need), a.To)
}

// NewPalette derives the widget's colours from a theme's primary and accent colours (#RRGGBB; an
// empty accent means the primary). A colour that cannot reach its contrast is moved, 1% at a time,
// toward black or white, whichever gets there first, and the move is reported.
func NewPalette(primaryHex, accentHex string) (Palette, []Adjustment, error) {
	p, err := parseHex(primaryHex)
	if err != nil {
		return Palette{}, nil, fmt.Errorf("primary colour: %w", err)
	}
	a, colour := p, "primary"
	if accentHex != "" {
		if a, err = parseHex(accentHex); err != nil {
			return Palette{}, nil, fmt.Errorf("accent colour: %w", err)
		}
		colour = "accent"
	}
	var adj []Adjustment
	primary := fit(p, func(c rgb) bool { return textOn(c) >= MinTextContrast })
	if primary != p {
		adj = append(adj, Adjustment{"primary", "text", p.hex(), primary.hex(), textOn(p), MinTextContrast})
	}
	surface, _ := parseHex(Surface)
	ring := fit(a, func(c rgb) bool { return contrast(c, surface) >= MinNonTextContrast })
	if ring != a {
		adj = append(adj, Adjustment{colour, "ring", a.hex(), ring.hex(), contrast(a, surface), MinNonTextContrast})
	}
	return Palette{Primary: primary.hex(), OnPrimary: on(primary).hex(), Ring: ring.hex()}, adj, nil
}

// Contrast is the WCAG 2 contrast ratio of two #RRGGBB colours, from 1 to 21.
func Contrast(aHex, bHex string) (float64, error) {
	a, err := parseHex(aHex)
	if err != nil {
		return 0, err
	}
	b, err := parseHex(bHex)
	if err != nil {
		return 0, err
	}
	return contrast(a, b), nil
}

// FormatRatio writes a contrast ratio as people read it, rounded down so that a ratio just
// short of a threshold never shows as reaching it: 4.499 is "4.49:1".
func FormatRatio(r float64) string {
	return strconv.FormatFloat(math.Floor(r*100)/100, 'f', 2, 64) + ":1"
}

type rgb [3]int

func parseHex(s string) (rgb, error) {
	if !hexColour.MatchString(s) {
		return rgb{}, fmt.Errorf("%q is not a colour like #1F6FEB", s)
	}
	n, _ := strconv.ParseUint(s[1:], 16, 32)
	return rgb{int(n >> 16), int(n >> 8 & 255), int(n & 255)}, nil
}

func (c rgb) hex() string { return fmt.Sprintf("#%02X%02X%02X", c[0], c[1], c[2]) }

// luminance is the WCAG 2 relative luminance. embed.js computes it with the same operations in
// the same order, so both sides reach the same figures.
func (c rgb) luminance() float64 {
	var l float64
	for i, w := range [3]float64{0.2126, 0.7152, 0.0722} {
		v := float64(c[i]) / 255
		if v <= 0.04045 {
			v = v / 12.92
		} else {
			v = math.Pow((v+0.055)/1.055, 2.4)
		}
		l += w * v
	}
	return l
}

func contrast(a, b rgb) float64 {
	x, y := a.luminance(), b.luminance()
	return (math.Max(x, y) + 0.05) / (math.Min(x, y) + 0.05)
}

var light, dark = must(parseHex(LightText)), must(parseHex(DarkText))

func must(c rgb, err error) rgb {
	if err != nil {
		panic(err)
	}
	return c
}

// on is the text colour that contrasts more with c (light on a tie).
func on(c rgb) rgb {
	if contrast(light, c) >= contrast(dark, c) {
		return light
	}
	return dark
}

// textOn is the contrast of the better text colour on c.
func textOn(c rgb) float64 { return contrast(on(c), c) }

// fit returns c when ok, else the first shade k% of the way to black or, failing that, to
// white, for k = 1, 2, ... (black and white satisfy every rule here).
func fit(c rgb, ok func(rgb) bool) rgb {
	for k := 0; k <= 100; k++ {
		for _, target := range [2]int{0, 255} {
			if s := mix(c, target, k); ok(s) {
				return s
			}
		}
	}
	return c
}

// mix moves each channel of c k% of the way to target, rounding as embed.js does.
func mix(c rgb, target, k int) rgb {
	var out rgb
	for i, v := range c {
		out[i] = int(math.Round(float64(v) + float64(target-v)*float64(k)/100))
	}
	return out
}
