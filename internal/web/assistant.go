package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/leadchat/leadchat/internal/assistant"
	"github.com/leadchat/leadchat/internal/limits"
)

// blankRows is how many empty service and FAQ rows the form offers for adding new ones.
const blankRows = 3

type assistantData struct {
	Profile assistant.Profile
	Error   string
	// NewQuestion is the index of the FAQ row filled in from the overview's "add to FAQ",
	// -1 for none: its answer field takes the focus.
	NewQuestion int
}

// faqQuestionLen bounds a question carried into the FAQ form, as the form's field does.
const faqQuestionLen = 500

// withBlankRows adds empty rows to fill in.
func withBlankRows(p assistant.Profile) assistant.Profile {
	for range blankRows {
		p.Services = append(p.Services, assistant.Service{})
		p.FAQ = append(p.FAQ, assistant.QA{})
	}
	return p
}

func (d *dashboard) assistant(w http.ResponseWriter, r *http.Request, v viewer) {
	raw, err := d.store.AssistantProfile(r.Context(), v.CompanyID)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	p := assistant.Profile{CompanyName: v.Company.Name}
	if raw != nil {
		if p, err = assistant.ParseProfile(raw); err != nil {
			d.serverError(w, r, err)
			return
		}
	}
	data := assistantData{Profile: withBlankRows(p), NewQuestion: -1}
	// A question the assistant could not answer, sent from the overview, fills the first
	// empty FAQ row.
	if q := []rune(strings.TrimSpace(r.URL.Query().Get("kerdes"))); len(q) > 0 {
		if len(q) > faqQuestionLen {
			q = q[:faqQuestionLen]
		}
		i := len(data.Profile.FAQ) - blankRows
		data.Profile.FAQ[i].Question = string(q)
		data.NewQuestion = i
	}
	d.render(w, r, http.StatusOK, "assistant", &v, data)
}

// saveAssistant stores the form through the same parser and checks as `leadchat assistant set`.
// Rows left wholly empty are dropped. Each entry's optional English version is edited beside it.
func (d *dashboard) saveAssistant(w http.ResponseWriter, r *http.Request, v viewer) {
	if err := r.ParseForm(); err != nil {
		d.errorPage(w, r, http.StatusBadRequest)
		return
	}
	f := r.PostForm
	p := assistant.Profile{CompanyName: f.Get("company_name"), Description: f.Get("description"),
		OpeningHours: f.Get("opening_hours"), Phone: f.Get("phone"), Email: f.Get("email"), Address: f.Get("address"),
		DescriptionEN: f.Get("description_en"), OpeningHoursEN: f.Get("opening_hours_en")}
	names, descs, prices := f["service_name"], f["service_description"], f["service_price"]
	namesEN, descsEN := f["service_name_en"], f["service_description_en"]
	for i := range names {
		s := assistant.Service{Name: names[i], Description: at(descs, i), Price: at(prices, i),
			NameEN: at(namesEN, i), DescriptionEN: at(descsEN, i)}
		if strings.TrimSpace(s.Name+s.Description+s.Price+s.NameEN+s.DescriptionEN) != "" {
			p.Services = append(p.Services, s)
		}
	}
	questions, answers := f["faq_question"], f["faq_answer"]
	questionsEN, answersEN := f["faq_question_en"], f["faq_answer_en"]
	for i := range questions {
		q := assistant.QA{Question: questions[i], Answer: at(answers, i), QuestionEN: at(questionsEN, i), AnswerEN: at(answersEN, i)}
		if strings.TrimSpace(q.Question+q.Answer+q.QuestionEN+q.AnswerEN) != "" {
			p.FAQ = append(p.FAQ, q)
		}
	}
	raw, err := json.Marshal(p)
	if err != nil {
		d.serverError(w, r, err)
		return
	}
	checked, err := assistant.ParseProfile(raw)
	if err != nil {
		d.render(w, r, http.StatusUnprocessableEntity, "assistant", &v, assistantData{Profile: withBlankRows(p), NewQuestion: -1,
			Error: profileRefused})
		return
	}
	if raw, err = json.Marshal(checked); err != nil {
		d.serverError(w, r, err)
		return
	}
	if err := d.store.SetAssistantProfile(r.Context(), v.CompanyID, raw); err != nil {
		d.serverError(w, r, err)
		return
	}
	d.flash(r.Context(), "Az asszisztens profilja elmentve; a következő válaszától már ezt használja.")
	http.Redirect(w, r, "/app/assistant", http.StatusSeeOther)
}

func at(vs []string, i int) string {
	if i < len(vs) {
		return vs[i]
	}
	return ""
}

// profileRefused says what a profile must be, with the limits it is held to.
var profileRefused = fmt.Sprintf("A profil nem menthető. A cég neve kötelező; minden szolgáltatásnak legyen neve, "+
	"minden kérdésnek válasza. A leírás legfeljebb %d, a többi mező legfeljebb %d karakter; legfeljebb %d szolgáltatás "+
	"és %d kérdés adható meg, és az e-mail-cím legyen érvényes.",
	limits.ProfileDescriptionLen, limits.ProfileFieldLen, limits.ProfileServices, limits.ProfileFAQ)
