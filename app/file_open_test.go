package app

import (
	"os"
	"strings"
	"testing"

	"plog/core/lesson"
)

// A teacher's .lesson file, dropped or picked, opens as its link does: the
// lesson in the dock, its start on the picture, the URL holding the lesson.
// A lesson file with a mistake says where, and changes nothing.
func TestLessonFilesOpenPickedOrDropped(t *testing.T) {
	data, err := os.ReadFile("../core/lesson/testdata/example.lesson")
	if err != nil {
		t.Fatal(err)
	}
	b := useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps))
	bad := strings.Replace(string(data), "read-all billing payments", "read-all billing", 1)
	b.Drop(OpenedFile{Name: "bad.lesson", Text: bad}, nil)
	settle(t, p, d)
	if p.lesson.current != nil || p.session.Len() != 3 || !strings.Contains(p.err, "bad.lesson is not a lesson the page can open: line 24:17: read-all needs 2 arguments") {
		t.Fatalf("a bad lesson file: lesson %v, %d steps, alert %q", p.lesson.current != nil, p.session.Len(), p.err)
	}

	// Named .txt, a lesson file is still known by its header.
	b.Drop(OpenedFile{Name: "payments.txt", Text: string(data)}, nil)
	settle(t, p, d)
	if p.err != "" || p.lesson.current == nil || p.lesson.current.Name != "payments-in-order" {
		t.Fatalf("the lesson file did not open: alert %q", p.err)
	}
	if len(p.view.Topics) != 1 || p.view.Topics[0].Name != "payments" {
		t.Errorf("the lesson's start is not on the picture: %+v", p.view.Topics)
	}
	link, err := lesson.EncodeLink(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Context().Page().URL().Fragment, "lesson="+link) {
		t.Errorf("the URL %q does not hold the lesson's link", d.Context().Page().URL().Fragment)
	}
}
