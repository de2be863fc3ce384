// Package limits is the one table of the service's length and count limits. The code that
// enforces a limit and the Hungarian message that states it both read it from here; the
// matching minLength, maxLength and list bounds of api/openapi.yaml are held to it by this
// package's test.
// Lengths are in characters (Unicode code points) unless the name says bytes.
package limits

// The limits. Changing one changes what is enforced and what the messages say; change the
// contract's matching keyword with it (the test names it).
const (
	// NameLen bounds first_name and last_name, of a lead and of the chat's contact form.
	NameLen = 200
	// ServiceLen bounds a lead's service.
	ServiceLen = 200
	// DetailsLen bounds a lead's details.
	DetailsLen = 10000
	// EmailLen bounds an email address (RFC 5321's path limit).
	EmailLen = 254
	// PhoneLen bounds a phone number as written.
	PhoneLen = 50
	// PhoneMinDigits and PhoneMaxDigits bound the digits of a phone number (E.164 allows 15).
	PhoneMinDigits = 6
	PhoneMaxDigits = 15
	// ReferralValueLen bounds each value of referral_data.
	ReferralValueLen = 2048

	// ConsentTextLen bounds the consent text a person was shown; PrivacyURLLen the address of
	// the privacy notice linked.
	ConsentTextLen = 1000
	PrivacyURLLen  = 2048

	// UnansweredQuestions bounds how many of the questions the assistant handed over a chat
	// lead lists (the latest are kept); UnansweredQuestionLen bounds each of them.
	UnansweredQuestions   = 5
	UnansweredQuestionLen = 200

	// MessageLen bounds a visitor's chat message.
	MessageLen = 2000
	// IDChars are the characters of a client-chosen chat session_id and message_id, as a
	// regular expression's character class holds them.
	IDChars = `A-Za-z0-9._:-`
	// SessionIDMinLen and SessionIDMaxLen bound a chat session_id.
	SessionIDMinLen = 22
	SessionIDMaxLen = 128
	// SessionMessages is how many visitor messages one chat session takes.
	SessionMessages = 50
	// MessageIDMinLen and MessageIDMaxLen bound a chat message_id.
	MessageIDMinLen = 1
	MessageIDMaxLen = 64

	// The widget's settings: the welcome message, the text above the contact form and the chat's
	// title; at most QuickButtons quick buttons of 1 to QuickButtonLen characters each; the
	// corners' radius in pixels.
	WelcomeLen       = 500
	ContactPromptLen = 500
	HeaderTitleLen   = 100
	QuickButtons     = 6
	QuickButtonLen   = 60
	BorderRadiusMin  = 8
	BorderRadiusMax  = 28

	// The assistant's profile, which every prompt is built from: the company's name, its
	// description, any other text (opening hours, a service's name, a question, an answer...),
	// and at most ProfileServices services and ProfileFAQ questions.
	ProfileNameLen        = 200
	ProfileDescriptionLen = 2000
	ProfileFieldLen       = 500
	ProfileServices       = 50
	ProfileFAQ            = 100

	// WebhookURLLen bounds a webhook endpoint's address, as browsers and servers commonly bound one.
	WebhookURLLen = 2048

	// IdempotencyKeyMinLen and IdempotencyKeyMaxLen bound the Idempotency-Key header.
	IdempotencyKeyMinLen = 1
	IdempotencyKeyMaxLen = 255
	// ListMin and ListMax bound the limit (page size) of a list; ListDefault is the size
	// when none is asked for.
	ListMin     = 1
	ListMax     = 200
	ListDefault = 50
	// SearchLen bounds the text a list of leads is searched for.
	SearchLen = 200
	// ExportsPerCompany is how many CSV exports of one company's leads run at once, across every
	// instance; one more is refused (429) until one ends.
	ExportsPerCompany = 2
	// NoteLen bounds an internal note on a lead.
	NoteLen = 5000

	// BodyBytes bounds a request body (larger is 413).
	BodyBytes = 64 << 10
	// HeaderBytes bounds a request's headers, path and query (larger is 431).
	HeaderBytes = 32 << 10
	// ServerHeaderBytes is what the HTTP server reads of a request's line and headers before it
	// answers a plain-text 431 of its own, unseen by any handler (net/http reads up to 4 KiB
	// more). Between HeaderBytes and it, the answer is the JSON 431; so a request of up to 64 KiB
	// of headers gets the JSON one, and no connection holds more than about 68 KiB of them.
	ServerHeaderBytes = 64 << 10

	// ReceiverHeaderBytes and ReceiverBodyBytes bound how much of a webhook receiver's answer
	// is read: headers past the first are refused unread, a body past the second is cut.
	ReceiverHeaderBytes = 16 << 10
	ReceiverBodyBytes   = 2 << 10
	// WebhookEndpoints and NotifyEmails bound a company's webhook endpoints and new-lead
	// e-mail addresses.
	WebhookEndpoints = 10
	NotifyEmails     = 10
	// LeadEmailsPerDay bounds the new-lead e-mails of one company in a day (UTC); past it the
	// day's remaining leads are told in one digest.
	LeadEmailsPerDay = 1000
	// DeliveriesInFlight bounds the deliveries (webhooks and e-mails) of one company being
	// attempted at once, across instances; the rest wait their turn.
	DeliveriesInFlight = 4
)

// Live conversations.
const (
	// StreamsPerIP bounds the chat streams one client address holds open at once.
	StreamsPerIP = 20
	// AgentMessageLen bounds a message a person of the company writes in a conversation.
	AgentMessageLen = 2000
)
