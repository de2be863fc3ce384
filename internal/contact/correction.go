package contact

import "strings"

// correctionCues are what visitors write when they correct a detail they gave: "bocs,
// elírtam", "a helyes címem", "sorry, typo", "I meant". Lower case, matched inside the text.
var correctionCues = []string{
	"elírtam", "elirtam", "elgépeltem", "elgepeltem", "rosszul írtam", "rosszul irtam",
	"rosszul adtam", "rossz címet", "rossz cimet", "rossz számot", "rossz szamot", "rossz e-mail",
	"rossz email", "javítom",
	"javitom", "javítás:", "javitas:", "helyesen", "a helyes", "helyes cím", "helyes cim",
	"helyes szám", "helyes szam", "helyes e-mail", "helyes email", "az előző helyett",
	"az elozo helyett", "inkább ez", "inkabb ez", "módosítom", "modositom", "helyett ez",
	"typo", "i meant", "correction", "corrected", "correct one", "correct email", "correct number",
	"correct address", "wrong email", "wrong number", "wrong address", "misspelled", "mistyped",
	"instead of", "should be", "should have been", "my mistake", "sorry, it's", "sorry its",
	"sorry, it is", "the right one",
}

// correcting reports whether text says that it corrects details given before.
func correcting(text string) bool {
	lower := strings.ToLower(text)
	for _, c := range correctionCues {
		if strings.Contains(lower, c) {
			return true
		}
	}
	return false
}
