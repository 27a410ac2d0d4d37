package kafkabroker

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// AssignCase is one assignment question for Kafka's own client assignors
// (maven/src/main/java/plog/AssignOracle.java).
type AssignCase struct {
	// Strategy is range, roundrobin, sticky or cooperative-sticky.
	Strategy string `json:"strategy"`
	// Partitions is each topic's partition count.
	Partitions map[string]int `json:"partitions"`
	Members    []AssignMember `json:"members"`
}

// AssignMember is a member as the assignor sees it.
type AssignMember struct {
	ID       string   `json:"id"`
	Instance string   `json:"instance,omitempty"`
	Topics   []string `json:"topics"`
	// Owned is what the member got in the previous generation, as
	// [topic, partition] pairs; Generation is that generation (-1: none).
	Owned      [][2]any `json:"owned,omitempty"`
	Generation int      `json:"generation"`
}

// Oracle is a running AssignOracle: one JVM answering case after case.
type Oracle struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// javaProgram is one of the tests' Java programs (maven/src/main/java/plog)
// as a command, run from the cached jars.
func javaProgram(main string) (*exec.Cmd, error) {
	jars, err := Jars()
	if err != nil {
		return nil, err
	}
	cp, err := classpath(jars)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("java", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", cp, main)
	cmd.SysProcAttr = sysProcAttr()
	return cmd, nil
}

// StartOracle starts the oracle from the cached jars.
func StartOracle() (*Oracle, error) {
	return startJSONProgram("plog.AssignOracle")
}

// startJSONProgram starts one of the tests' Java programs that answers a
// JSON case a line with a JSON line.
func startJSONProgram(main string) (*Oracle, error) {
	cmd, err := javaProgram(main)
	if err != nil {
		return nil, err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the assignment oracle: %v", err)
	}
	out := bufio.NewScanner(stdout)
	out.Buffer(make([]byte, 1<<20), 16<<20)
	return &Oracle{cmd: cmd, in: in, out: out}, nil
}

// Assign returns Java's assignment: member id → [topic, partition] pairs.
func (o *Oracle) Assign(c AssignCase) (map[string][][2]any, error) {
	return o.ask(c)
}

// ask sends one case and reads the answer: member id → [topic, partition]
// pairs, or the error the program gave.
func (o *Oracle) ask(c any) (map[string][][2]any, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	if _, err := o.in.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("the assignment oracle stopped: %v", err)
	}
	if !o.out.Scan() {
		return nil, fmt.Errorf("the assignment oracle gave no answer: %v", o.out.Err())
	}
	var failed struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(o.out.Bytes(), &failed) == nil && failed.Error != "" {
		return nil, errors.New("assignment oracle: " + failed.Error)
	}
	var out map[string][][2]any
	if err := json.Unmarshal(o.out.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("assignment oracle: %v in %q", err, o.out.Text())
	}
	return out, nil
}

// Close stops the oracle: it ends at the end of its input, or is killed
// after a few seconds.
func (o *Oracle) Close() error {
	o.in.Close()
	done := make(chan error, 1)
	go func() { done <- o.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		o.cmd.Process.Kill()
		return <-done
	}
}
