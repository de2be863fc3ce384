package lead

// sourceLabels are the sources' Hungarian names, in the order lists offer them: every page, e-mail
// and table that names a source for a person takes the name from here.
var sourceLabels = []struct {
	Source Source
	Label  string
}{
	{SourceForm, "űrlap"}, {SourceChat, "csevegés"}, {SourceAPI, "API"}, {SourceManual, "kézi rögzítés"},
}

// Sources lists the sources a lead can have, in the order lists offer them.
func Sources() []Source {
	out := make([]Source, len(sourceLabels))
	for i, s := range sourceLabels {
		out[i] = s.Source
	}
	return out
}

// Label is the source's Hungarian name; an unknown source is shown as it is.
func (s Source) Label() string {
	for _, l := range sourceLabels {
		if l.Source == s {
			return l.Label
		}
	}
	return string(s)
}
