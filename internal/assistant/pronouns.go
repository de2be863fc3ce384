package assistant

// thirdPersons are the English personal pronouns and possessives of the third person singular
// that stopWords lacks ("it", "its", "them", "their" are there): "Should he bring his
// helmet?", "His coat is matted". They point back at someone the visitor names or means and
// name no topic the profile could lack; at the start of a sentence, capitalised, they are no
// proper name either. Folded, "him" is also the Hungarian "hím" (male), so they are English
// only.
var thirdPersons = wordSet(`he she him her his hers`)
