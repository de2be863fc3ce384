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

	// MessageLen bounds a visitor's chat message.
	MessageLen = 2000
	// SessionIDMinLen and SessionIDMaxLen bound a chat session_id.
	SessionIDMinLen = 22
	SessionIDMaxLen = 128
	// SessionMessages is how many visitor messages one chat session takes.
	SessionMessages = 50
	// MessageIDMinLen and MessageIDMaxLen bound a chat message_id.
	MessageIDMinLen = 1
	MessageIDMaxLen = 64

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
	// NoteLen bounds an internal note on a lead.
	NoteLen = 5000

	// BodyBytes bounds a request body (larger is 413).
	BodyBytes = 64 << 10
	// HeaderBytes bounds a request's headers, path and query (larger is 431).
	HeaderBytes = 32 << 10
)
