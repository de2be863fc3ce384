package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/leadchat/leadchat/internal/assistant"
)

// request is the Chat Completions request body.
type request struct {
	Model          string         `json:"model"`
	Messages       []message      `json:"messages"`
	Temperature    float64        `json:"temperature"`
	ResponseFormat responseFormat `json:"response_format"`
}

type responseFormat struct {
	Type string `json:"type"`
}

// response is the part of the Chat Completions response body the client reads.
type response struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
}

// reply is the JSON object the system prompt asks the model to answer with.
type reply struct {
	Reply string `json:"reply"`
	// Handover is true when the model could not answer from the profile and offers a colleague.
	Handover bool `json:"handover"`
	Contact  struct {
		Name  string `json:"name"`
		Email string `json:"email"`
		Phone string `json:"phone"`
	} `json:"contact"`
}

// parseContent reads the model's message: the JSON object asked for, or, from a model that
// ignored the format, plain text used as the reply with no proposed contact.
func parseContent(content string) (assistant.Answer, error) {
	content = strings.TrimSpace(content)
	if content == "" {
		return assistant.Answer{}, errors.New("openai: empty reply")
	}
	body := unfence(content)
	if !strings.HasPrefix(body, "{") {
		return assistant.Answer{Text: content}, nil
	}
	var r reply
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return assistant.Answer{}, fmt.Errorf("openai: reply is malformed JSON: %w", err)
	}
	text := strings.TrimSpace(r.Reply)
	if text == "" {
		return assistant.Answer{}, errors.New(`openai: reply JSON has no "reply"`)
	}
	return assistant.Answer{Text: text, Handover: r.Handover, Proposed: assistant.Contact{
		Name:  strings.TrimSpace(r.Contact.Name),
		Email: strings.TrimSpace(r.Contact.Email),
		Phone: strings.TrimSpace(r.Contact.Phone),
	}}, nil
}

// unfence removes a Markdown code fence that some models put around JSON.
func unfence(s string) string {
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	s = strings.TrimPrefix(s, "json")
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}
