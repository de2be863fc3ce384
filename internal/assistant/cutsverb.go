package assistant

// cutsVerb reports whether a split of the folded word f whose first part is h cuts through
// the verb the dictionary's rules read in f past its verbal prefix: "kivitelezés"
// (construction) is "ki" and a form of "vitelez", not "kivi" (kiwi) and "telek" (plot).
func cutsVerb(f, h string) bool {
	v, pre := prefixedVerb(f)
	return v != "" && len(h) > int(pre)
}
