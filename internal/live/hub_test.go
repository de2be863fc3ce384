package live

import (
	"net/netip"
	"testing"

	"github.com/google/uuid"

	"github.com/leadchat/leadchat/internal/errs"
	"github.com/leadchat/leadchat/internal/limits"
)

func woken(s *Sub) bool {
	select {
	case <-s.Wake:
		return true
	default:
		return false
	}
}

func ended(s *Sub) bool {
	select {
	case <-s.Ended:
		return true
	default:
		return false
	}
}

func TestHubRoutesNews(t *testing.T) {
	h := NewHub()
	a, b := uuid.New(), uuid.New()
	ip := netip.MustParseAddr("192.0.2.1")
	va, _ := h.Visitor(a, "session-a-0000000000000001", ip)
	vb, _ := h.Visitor(b, "session-a-0000000000000001", ip) // the same id under another company
	da, _ := h.Dashboard(a)

	h.Changed("42 " + a.String() + " session-a-0000000000000001")
	if !woken(va) || !woken(da) || woken(vb) {
		t.Error("a message of company a woke the wrong streams")
	}
	h.Changed("43 " + a.String() + " session-a-0000000000000001")
	h.Changed("44 " + a.String() + " session-a-0000000000000001")
	if !woken(va) || woken(va) {
		t.Error("two wake-ups before a read are one")
	}
	woken(da)
	h.Changed("p " + a.String())
	if !woken(va) || woken(vb) || woken(da) {
		t.Error("presence news of company a woke the wrong streams")
	}
	for _, junk := range []string{"x " + a.String() + " s", "1 not-a-uuid s", "p not-a-uuid"} {
		h.Changed(junk)
	}
	woken(va)
	woken(vb)
	woken(da)
	h.Changed("")
	if !woken(va) || !woken(vb) || !woken(da) {
		t.Error("a reconnected listener did not wake every stream")
	}
	h.Close()
	if !ended(va) || !ended(vb) || !ended(da) {
		t.Error("Close left streams open")
	}
	if _, err := h.Visitor(a, "session-a-0000000000000002", ip); !errs.Is(err, errs.Unavailable) {
		t.Errorf("a stream after Close: %v", err)
	}
}

func TestHubOneStreamPerSessionAndAddressLimit(t *testing.T) {
	h := NewHub()
	c := uuid.New()
	ip, other := netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2")
	first, _ := h.Visitor(c, "session-0000000000000000001", ip)
	second, err := h.Visitor(c, "session-0000000000000000001", other)
	if err != nil || !ended(first) || ended(second) {
		t.Fatalf("a second stream of the session: %v, first ended %v", err, ended(first))
	}
	h.Release(first) // the ended stream's release must not remove its successor
	if n, _ := h.Open(); n != 1 {
		t.Errorf("%d streams open, want 1", n)
	}
	var subs []*Sub
	for i := range limits.StreamsPerIP {
		s, err := h.Visitor(c, "session-x-00000000000000"+string(rune('a'+i)), ip)
		if err != nil {
			t.Fatalf("stream %d: %v", i+1, err)
		}
		subs = append(subs, s)
	}
	if _, err := h.Visitor(c, "session-y-000000000000000000", ip); !errs.Is(err, errs.RateLimited) {
		t.Errorf("stream %d of one address: %v", limits.StreamsPerIP+1, err)
	}
	if _, err := h.Visitor(c, "session-x-00000000000000a", ip); err != nil {
		t.Errorf("a session's new stream from a full address replaces its old one: %v", err)
	}
	h.Release(subs[1])
	if _, err := h.Visitor(c, "session-y-000000000000000000", ip); err != nil {
		t.Errorf("after one closed: %v", err)
	}
}

// A visitor's stream subscribes before it reads what the client missed: news of a message that
// arrives during the read (it committed after the read's snapshot) wakes the stream, so the
// message is read next rather than left unsent. A failed read releases the stream.
func TestFollowSubscribesBeforeItReads(t *testing.T) {
	h := NewHub()
	company, session, ip := uuid.New(), "follow-session-000000000001", netip.MustParseAddr("192.0.2.7")
	s, missed, err := Follow(h, company, session, ip, func() (int, error) {
		h.Changed("42 " + company.String() + " " + session)
		return 3, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if missed != 3 {
		t.Errorf("missed = %d, want the read's 3", missed)
	}
	if !woken(s) {
		t.Error("news that came during the read did not wake the stream")
	}
	h.Release(s)

	failed := errs.E(errs.Unavailable, errs.CodeUnavailable)
	if _, _, err := Follow(h, company, session, ip, func() (int, error) { return 0, failed }); err != failed {
		t.Fatalf("a failed read: %v, want %v", err, failed)
	}
	if visitors, _ := h.Open(); visitors != 0 {
		t.Errorf("%d visitor streams open after a failed read, want 0", visitors)
	}
}
