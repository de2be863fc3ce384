package contracttest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// errorsHeading opens the list, in an operation's description, of the error codes it can answer
// with: one item per status, "- `400` `code`, `code`, …", an item may wrap onto further lines.
const errorsHeading = "**Errors**"

var (
	errorItem = regexp.MustCompile("^`(\\d{3})` (.*)$")
	codeName  = regexp.MustCompile("`([a-z_]+)`")
)

// ErrorCodes reads op's **Errors** list: for each status, the codes listed for it, in the
// list's order. It fails when the description has no such list or an item is not of its form.
func ErrorCodes(op *openapi3.Operation) (map[int][]string, error) {
	_, list, ok := strings.Cut(op.Description, errorsHeading)
	if !ok {
		return nil, fmt.Errorf("the description has no %s list", errorsHeading)
	}
	var items []string
	for _, line := range strings.Split(list, "\n")[1:] {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "- "):
			items = append(items, strings.TrimPrefix(line, "- "))
		case line != "" && len(items) > 0:
			items[len(items)-1] += " " + line
		}
	}
	codes := map[int][]string{}
	for _, it := range items {
		m := errorItem.FindStringSubmatch(it)
		if m == nil {
			return nil, fmt.Errorf("list item %q is not \"`status` `code`, …\"", it)
		}
		st, _ := strconv.Atoi(m[1])
		if _, dup := codes[st]; dup {
			return nil, fmt.Errorf("%d is listed twice", st)
		}
		names := codeName.FindAllStringSubmatch(m[2], -1)
		if len(names) == 0 {
			return nil, fmt.Errorf("%d lists no code", st)
		}
		for _, n := range names {
			codes[st] = append(codes[st], n[1])
		}
	}
	return codes, nil
}

// checkCode fails when an error answer of op carries a code that op's **Errors** list does not
// give its status, so the description's promise is held by every response the tests see.
func checkCode(op *openapi3.Operation, status int, body []byte) error {
	var e struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Code == "" {
		return fmt.Errorf("the %d answer has no error code: %q", status, body)
	}
	codes, err := ErrorCodes(op)
	if err != nil {
		return err
	}
	if !slices.Contains(codes[status], e.Code) {
		return fmt.Errorf("the %d answer's code %s is not in the operation's %s list for %d (%v)",
			status, e.Code, errorsHeading, status, codes[status])
	}
	return nil
}
