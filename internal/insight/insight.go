// Package insight holds what the dashboard's landing page shows of a company's leads and
// widget: leads per day by source, the widget's funnel, where leads come from, how fast the
// company answers them, and what visitors asked that the assistant could not answer.
package insight

import (
	"time"

	"github.com/leadchat/leadchat/internal/lead"
)

// EventType is a widget event counted for the funnel.
type EventType string

// The widget events: its bubble was shown on a page, and a visitor opened the panel.
const (
	Shown  EventType = "shown"
	Opened EventType = "opened"
)

// Valid reports whether t is an event the funnel counts.
func (t EventType) Valid() bool { return t == Shown || t == Opened }

// Day is one day's leads by source (Budapest days).
type Day struct {
	Day      time.Time
	BySource map[lead.Source]int
	Total    int
}

// Funnel is a period's widget funnel: bubbles shown, panels opened, conversations started and
// leads (from every source).
type Funnel struct {
	Shown, Opened, Conversations, Leads int
}

// Count is a value and how many leads had it.
type Count struct {
	Value string
	Count int
}

// Question is a visitor question the assistant handed over, grouped by its text, with when it
// was last asked.
type Question struct {
	Text  string
	Count int
	Last  time.Time
}

// Overview is the landing page's figures for one period ending now.
type Overview struct {
	// Days are the period's days, oldest first, every day present.
	Days   []Day
	Funnel Funnel
	// Sources and Pages are the most frequent utm_source values and landing pages of the
	// period's leads.
	Sources, Pages []Count
	// FirstResponse is the median time from a lead's arrival to its first status change, of
	// the period's leads that changed status; Responded is how many did.
	FirstResponse time.Duration
	Responded     int
	// Questions are the questions handed over in the last 30 days, most asked first.
	Questions []Question
}

// Periods are the lengths, in days, the page offers.
var Periods = []int{30, 90}

// QuestionDays is how far back the handed-over questions are read.
const QuestionDays = 30

// TopN is how many sources, pages and questions the page lists.
const TopN = 10
