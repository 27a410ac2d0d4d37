package kafkabroker

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Version is the Apache Kafka release the broker runs: maven/pom.xml's
// kafka.version.
const Version = "4.4.0"

// The Maven project: the broker's dependencies, and the assignment oracle
// the tests call (maven/src, see oracle.go).
//
//go:embed maven/pom.xml
//go:embed maven/src
var mavenProject embed.FS

// NeedsJava is what the error says when Java or Maven is missing.
const NeedsJava = "the Kafka broker needs Java 17 or later and Maven (mvn) on PATH: " +
	"on Debian or Ubuntu `sudo apt-get install -y default-jdk-headless maven` " +
	"(`make jdk` does it when run as root); elsewhere install a JDK 17+ and Apache Maven"

var (
	jarsOnce sync.Once
	jarsDir  string
	jarsErr  error
)

// Jars returns the folder holding the broker's jars, resolving them from
// Maven Central into the cache on first use (a minute or so; offline after
// that, as long as the cache stays). The folder's name carries a hash of
// the Maven project, so that a change to it resolves afresh.
func Jars() (string, error) {
	jarsOnce.Do(func() { jarsDir, jarsErr = resolveJars() })
	return jarsDir, jarsErr
}

// CacheDir is where the jars and the compiled Java programs live:
// $PLOG_KAFKA_CACHE, or plog/kafka-VERSION-HASH in the user's cache folder
// ($XDG_CACHE_HOME, else ~/.cache).
func CacheDir() (string, error) {
	if dir := os.Getenv("PLOG_KAFKA_CACHE"); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for the Kafka jars (set PLOG_KAFKA_CACHE): %v", err)
	}
	return filepath.Join(base, "plog", "kafka-"+Version+"-"+projectHash()), nil
}

// projectHash is a short hash of the embedded Maven project.
func projectHash() string {
	h := sha256.New()
	fs.WalkDir(mavenProject, "maven", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := mavenProject.ReadFile(path)
			fmt.Fprintf(h, "%s %d\n", path, len(b))
			h.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:10]
}

// complete marks a cache folder that a Maven run filled entirely.
const complete = ".complete"

func resolveJars() (string, error) {
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	libs := filepath.Join(cache, "libs")
	if _, err := os.Stat(filepath.Join(cache, complete)); err == nil {
		return libs, nil
	}
	if err := checkTools(); err != nil {
		return "", err
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	// Maven works in a scratch folder renamed into place at the end, so
	// that a run cut short leaves no half-filled cache behind.
	work, err := os.MkdirTemp(cache, "resolving-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	project := filepath.Join(work, "project")
	if err := writeProject(project); err != nil {
		return "", err
	}
	args := []string{"-B", "-q", "-f", filepath.Join(project, "pom.xml"),
		"package", "dependency:copy-dependencies", "-DincludeScope=runtime",
		"-DoutputDirectory=" + filepath.Join(work, "libs")}
	if out, err := exec.Command("mvn", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("resolving Kafka %s from Maven Central failed: mvn %s: %v\n%s",
			Version, strings.Join(args, " "), err, tail(string(out), 40))
	}
	oracle, err := os.ReadFile(filepath.Join(project, "target", "plog-oracle.jar"))
	if err != nil {
		return "", fmt.Errorf("mvn package built no oracle jar: %v", err)
	}
	if err := os.WriteFile(filepath.Join(work, "libs", "plog-oracle.jar"), oracle, 0o644); err != nil {
		return "", err
	}
	os.RemoveAll(libs)
	if err := os.Rename(filepath.Join(work, "libs"), libs); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(cache, complete), nil, 0o644); err != nil {
		return "", err
	}
	return libs, nil
}

// checkTools fails with NeedsJava unless java and mvn are on PATH.
func checkTools() error {
	var missing []string
	for _, tool := range []string{"java", "mvn"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s not found: %s", strings.Join(missing, " and "), NeedsJava)
	}
	return nil
}

// writeProject writes the embedded Maven project into dir.
func writeProject(dir string) error {
	return fs.WalkDir(mavenProject, "maven", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, strings.TrimPrefix(path, "maven"))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := mavenProject.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// classpath is every jar in dir, joined as java's -cp wants.
func classpath(dir string) (string, error) {
	jars, err := filepath.Glob(filepath.Join(dir, "*.jar"))
	if err != nil {
		return "", err
	}
	if len(jars) == 0 {
		return "", errors.New("no jars in " + dir + ": remove the folder to resolve them again")
	}
	return strings.Join(jars, string(os.PathListSeparator)), nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
