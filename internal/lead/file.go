package lead

// File is everything held on one lead that its page shows: the lead, its chat transcript
// (oldest first), its history (oldest first), its internal notes (oldest first; each with its
// author's address, text and time only, not its ID or its author's ID), and the same person's
// other leads (the same e-mail address or E.164 number in the company, newest first), each with
// its ID, names, address, phone, source, status, over-limit mark and times only.
type File struct {
	Lead     Stored
	Messages []Message
	History  []HistoryEntry
	Notes    []InternalNote
	Related  []Stored
}
