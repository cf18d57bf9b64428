// widerow serve, judged by gocql with ProtoVersion 4 (gocql v1.7 speaks no v5).
// Target from CQL_HOST / CQL_PORT. Runs in a keyspace of its own, created
// first and dropped last.
//
//	go test -count=1 ./...
package drivertest

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

var (
	session  *gocql.Session
	keyspace string
)

func env(name, dflt string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return dflt
}

func TestMain(m *testing.M) {
	host := env("CQL_HOST", "127.0.0.1")
	port, err := strconv.Atoi(env("CQL_PORT", "9042"))
	if err != nil {
		fmt.Println("FAIL bad CQL_PORT:", err)
		os.Exit(1)
	}
	if p := os.Getenv("CQL_PROTOCOL"); p != "" && p != "4" {
		fmt.Printf("note: gocql speaks protocol v4 at most; CQL_PROTOCOL=%s tests v4\n", p)
	}
	cluster := gocql.NewCluster(host)
	cluster.Port = port
	cluster.ProtoVersion = 4
	cluster.Consistency = gocql.One
	cluster.Timeout = 30 * time.Second
	cluster.ConnectTimeout = 10 * time.Second
	cluster.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy())
	session, err = cluster.CreateSession()
	if err != nil {
		fmt.Printf("FAIL connect %s:%d: %v\n", host, port, err)
		os.Exit(1)
	}
	keyspace = fmt.Sprintf("drv_go_%d_%d", os.Getpid(), time.Now().UnixNano()%1_000_000_000)
	err = session.Query("CREATE KEYSPACE " + keyspace +
		" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}").Exec()
	if err != nil {
		fmt.Println("FAIL create keyspace:", err)
		os.Exit(1)
	}
	code := m.Run()
	if err := session.Query("DROP KEYSPACE IF EXISTS " + keyspace).Exec(); err != nil {
		fmt.Println("FAIL drop keyspace:", err)
		code = 1
	}
	session.Close()
	os.Exit(code)
}

func TestConnect(t *testing.T) {
	var release, dc string
	if err := session.Query("SELECT release_version, data_center FROM system.local").Scan(&release, &dc); err != nil {
		t.Fatal(err)
	}
	if release == "" || dc != "datacenter1" {
		t.Fatalf("system.local: release %q, data center %q", release, dc)
	}
}

func TestPreparedRoundTrip(t *testing.T) {
	if err := session.Query("CREATE TABLE " + keyspace + ".kv (k int PRIMARY KEY, name text, big bigint, " +
		"data blob, id uuid, at timestamp, nums list<int>, attrs map<text, int>)").Exec(); err != nil {
		t.Fatal(err)
	}
	id := gocql.TimeUUID()
	at := time.Date(2024, 2, 29, 23, 59, 58, 123_000_000, time.UTC)
	// gocql prepares every statement that has bind values
	ins := session.Query("INSERT INTO "+keyspace+".kv (k, name, big, data, id, at, nums, attrs) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		7, "zoë ✓", int64(-9_000_000_000), []byte{0, 1, 0xff}, id, at, []int{3, 1, 2}, map[string]int{"x": 1, "y": -2})
	if err := ins.Exec(); err != nil {
		t.Fatal(err)
	}
	var (
		name  string
		big   int64
		data  []byte
		gotID gocql.UUID
		gotAt time.Time
		nums  []int
		attrs map[string]int
	)
	err := session.Query("SELECT name, big, data, id, at, nums, attrs FROM "+keyspace+".kv WHERE k = ?", 7).
		Scan(&name, &big, &data, &gotID, &gotAt, &nums, &attrs)
	if err != nil {
		t.Fatal(err)
	}
	if name != "zoë ✓" || big != -9_000_000_000 || !reflect.DeepEqual(data, []byte{0, 1, 0xff}) || gotID != id ||
		!gotAt.Equal(at) || !reflect.DeepEqual(nums, []int{3, 1, 2}) || !reflect.DeepEqual(attrs, map[string]int{"x": 1, "y": -2}) {
		t.Fatalf("read back %q %d %v %v %v %v %v", name, big, data, gotID, gotAt, nums, attrs)
	}
	err = session.Query("SELECT name FROM "+keyspace+".kv WHERE k = ?", 8).Scan(&name)
	if !errors.Is(err, gocql.ErrNotFound) {
		t.Fatalf("missing row: %v", err)
	}
}

func TestPaging(t *testing.T) {
	if err := session.Query("CREATE TABLE " + keyspace + ".paged (p int, c int, PRIMARY KEY (p, c))").Exec(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1500; i++ {
		if err := session.Query("INSERT INTO "+keyspace+".paged (p, c) VALUES (?, ?)", i%3, i).Exec(); err != nil {
			t.Fatal(err)
		}
	}
	iter := session.Query("SELECT p, c FROM " + keyspace + ".paged").PageSize(500).Iter()
	var p, c, n, lastP, lastC int
	lastP = -1
	for iter.Scan(&p, &c) {
		if p == lastP && c <= lastC {
			t.Fatalf("partition %d: clustering %d after %d", p, c, lastC)
		}
		lastP, lastC = p, c
		n++
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	if n != 1500 {
		t.Fatalf("paged %d rows, expected 1500", n)
	}
	// by hand: the first page's state resumes on the second
	first := session.Query("SELECT p, c FROM " + keyspace + ".paged").PageSize(500).Iter()
	state := first.PageState()
	rows := first.NumRows()
	first.Close()
	if rows != 500 || len(state) == 0 {
		t.Fatalf("first page: %d rows, state %x", rows, state)
	}
	second := session.Query("SELECT p, c FROM " + keyspace + ".paged").PageSize(500).PageState(state).Iter()
	if second.NumRows() != 500 {
		t.Fatalf("second page: %d rows", second.NumRows())
	}
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestErrors(t *testing.T) {
	err := session.Query("SELECT * FROM " + keyspace + ".no_such_table").Exec()
	var reqErr gocql.RequestError
	if !errors.As(err, &reqErr) || reqErr.Code() != gocql.ErrCodeInvalid || !strings.Contains(reqErr.Message(), "no_such_table") {
		t.Fatalf("missing table: %T %v", err, err)
	}
	err = session.Query("SELEC * FROM system.local").Exec()
	if !errors.As(err, &reqErr) || reqErr.Code() != gocql.ErrCodeSyntax {
		t.Fatalf("syntax error: %T %v", err, err)
	}
	err = session.Query("CREATE TABLE " + keyspace + ".kv (k int PRIMARY KEY)").Exec()
	var exists *gocql.RequestErrAlreadyExists
	if !errors.As(err, &exists) || exists.Keyspace != keyspace || exists.Table != "kv" {
		t.Fatalf("already exists: %T %v", err, err)
	}
}
