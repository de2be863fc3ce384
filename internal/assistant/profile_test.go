package assistant

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testProfile is the web agency of testdata/profile.yaml.
func testProfile(t *testing.T) Profile {
	t.Helper()
	data, err := os.ReadFile("testdata/profile.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseProfile(data)
	if err != nil {
		t.Fatalf("ParseProfile(profile.yaml): %v", err)
	}
	return p
}

func TestParseProfileYAMLAndJSONAgree(t *testing.T) {
	fromYAML := testProfile(t)
	data, err := os.ReadFile("testdata/profile.json")
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := ParseProfile(data)
	if err != nil {
		t.Fatalf("ParseProfile(profile.json): %v", err)
	}
	if diff := cmp.Diff(fromYAML, fromJSON); diff != "" {
		t.Errorf("YAML and JSON profiles differ (-yaml +json):\n%s", diff)
	}
	if fromYAML.CompanyName != "Alfa Web Kft." || len(fromYAML.Services) != 4 || len(fromYAML.FAQ) != 4 {
		t.Errorf("profile = %+v", fromYAML)
	}
}

func TestParseProfile(t *testing.T) {
	long := func(n int) string { return strings.Repeat("á", n) }
	services := func(n int) string {
		return "company_name: X\nservices:\n" + strings.Repeat("  - name: S\n", n)
	}
	faq := func(n int) string {
		return "company_name: X\nfaq:\n" + strings.Repeat("  - {question: Q, answer: A}\n", n)
	}
	tests := []struct {
		name    string
		data    string
		want    Profile // checked when wantErr is empty
		wantErr string
	}{
		{name: "minimal JSON", data: `{"company_name": " Béta Bt. "}`, want: Profile{CompanyName: "Béta Bt."}},
		{name: "minimal YAML", data: "company_name: Béta Bt.\n", want: Profile{CompanyName: "Béta Bt."}},
		{name: "YAML number as price", data: "company_name: X\nservices:\n  - name: S\n    price: 39000\n",
			want: Profile{CompanyName: "X", Services: []Service{{Name: "S", Price: "39000"}}}},
		{name: "limits reached", data: "company_name: X\ndescription: " + long(2000) + "\n",
			want: Profile{CompanyName: "X", Description: long(2000)}},
		{name: "unknown JSON field", data: `{"company_name": "X", "companyname": "Y"}`, wantErr: "unknown field"},
		{name: "unknown YAML field", data: "company_name: X\nopening_hour: 9-17\n", wantErr: "opening_hour"},
		{name: "unknown service field", data: "company_name: X\nservices:\n  - name: S\n    cost: 5\n", wantErr: "cost"},
		{name: "missing company name", data: "description: Y\n", wantErr: "company_name is required"},
		{name: "blank company name", data: `{"company_name": "   "}`, wantErr: "company_name is required"},
		{name: "description too long", data: "company_name: X\ndescription: " + long(2001) + "\n", wantErr: "description is longer than 2000"},
		{name: "service field too long", data: "company_name: X\nservices:\n  - name: S\n    price: " + long(501) + "\n", wantErr: "services[0].price"},
		{name: "FAQ answer too long", data: "company_name: X\nfaq:\n  - question: Q\n    answer: " + long(501) + "\n", wantErr: "faq[0].answer"},
		{name: "service without name", data: "company_name: X\nservices:\n  - price: 5 Ft\n", wantErr: "services[0].name is required"},
		{name: "FAQ without answer", data: "company_name: X\nfaq:\n  - question: Q\n", wantErr: "faq[0].answer is required"},
		{name: "50 services", data: services(50), want: Profile{CompanyName: "X", Services: slices.Repeat([]Service{{Name: "S"}}, 50)}},
		{name: "51 services", data: services(51), wantErr: "more than 50 services"},
		{name: "101 FAQ pairs", data: faq(101), wantErr: "more than 100 faq"},
		{name: "NUL character", data: `{"company_name": "X\u0000"}`, wantErr: "NUL"},
		{name: "bad email", data: "company_name: X\nemail: not an address\n", wantErr: "email"},
		{name: "two YAML documents", data: "company_name: X\n---\ncompany_name: Y\n", wantErr: "more than one document"},
		{name: "empty", data: "", wantErr: "empty"},
		{name: "broken YAML", data: "company_name: [X\n", wantErr: "YAML"},
		{name: "JSON list", data: `[{"company_name": "X"}]`, wantErr: "JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseProfile([]byte(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrInvalidProfile) {
					t.Fatalf("err = %v, want an ErrInvalidProfile mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("profile (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithoutPrices(t *testing.T) {
	p := Profile{
		CompanyName: "X",
		Description: "Kedvező áron dolgozunk. Egy oldal már 99 000 Ft-tól! Gyorsak vagyunk.",
		Services:    []Service{{Name: "Oldal", Description: "Ára 1,9 millió. Szép.", Price: "1 900 000 Ft"}},
		FAQ: []QA{
			{Question: "Mennyibe kerül a domain?", Answer: "5 000 Ft évente."},
			{Question: "Van garancia?", Answer: "Igen, 12 hónap."},
		},
	}
	want := Profile{
		CompanyName: "X",
		Description: "Kedvező áron dolgozunk. Gyorsak vagyunk.",
		Services:    []Service{{Name: "Oldal", Description: "Szép."}},
		FAQ:         []QA{{Question: "Van garancia?", Answer: "Igen, 12 hónap."}},
	}
	if diff := cmp.Diff(want, p.WithoutPrices()); diff != "" {
		t.Errorf("WithoutPrices (-want +got):\n%s", diff)
	}
	if p.Services[0].Price == "" {
		t.Error("WithoutPrices changed the original profile")
	}
}
