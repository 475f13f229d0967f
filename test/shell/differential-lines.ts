/**
 * Command lines the differential test runs through the browser shell and through /bin/bash.
 * Listings from grep -r and find are piped through sort: GNU tools walk in directory order, the
 * shell in sorted order.
 */
export const FIXTURE: Record<string, string> = {
  'a.txt': 'one\ntwo\nthree\nfour\nfive\n',
  'b.txt': 'one\nTWO\nthree\n4\nfive\nsix\n',
  'nums.txt': '10\n2\n33\n2\n-5\n7.5\n',
  'words.txt': 'apple banana\ncherry apple\nbanana\n\ndate  elder  fig\n',
  'csv.csv': 'name,age,city\nann,31,oslo\nbob,25,rome\ncid,40,oslo\n',
  'dup.txt': 'a\na\nb\nb\nb\nc\na\n',
  'nonl.txt': 'no final newline',
  'src/main.ts': "import { x } from './lib';\n// TODO: remove\nconsole.log(x);\n",
  'src/lib.ts': 'export const x = 1;\n// TODO later\n// todo lower\n',
  'src/deep/util.js': 'function f() { return 42; }\nmodule.exports = f;\n',
  'docs/readme.md': '# Title\n\nSome text here.\nTODO: docs\n',
  '.hidden': 'secret\n',
  'space name.txt': 'has spaces\n',
  'json/data.json': '{"name":"sandpit","version":"1.2.0","tags":["fs","shell","git"],"deps":{"memfs":"4.0","isomorphic-git":"1.2"},"count":3,"nested":{"a":{"b":[10,20,30]}},"nothing":null,"ok":true}\n',
  'json/people.json': '[\n  {"name": "ann", "age": 31, "city": "oslo"},\n  {"name": "bob", "age": 25, "city": "rome"},\n  {"name": "cid", "age": 40, "city": "oslo", "admin": true}\n]\n',
  'json/stream.jsonl': '{"id":1,"v":"a"}\n{"id":2,"v":"b"}\n{"id":3,"v":null}\n',
  'json/bad.json': '{"a": 1,, }\n',
};

export const LINES: string[] = [
  // echo, quoting, variables
  'echo hello world', 'echo "a  b"   c', "echo 'single $HOME'", 'echo -n no newline', 'echo -e "tab\\there"',
  'x=5; echo $x ${x}', 'x="a b"; echo "$x" $x', 'echo ${UNSET:-default} ${UNSET-dash}', 'y=; echo "[${y:-empty}]" "[${y-unset}]"',
  'v=hello.tar.gz; echo ${v%.gz} ${v%%.*} ${v#*.} ${v##*.} ${#v}', 'echo "$(echo inner)" `echo back`', 'echo $(echo a; echo b)',
  'echo "nested $(echo "q $(echo deep)")"', 'echo $((3 + 4 * 2)) $(( (3+4)*2 )) $((10 / 3)) $((10 % 3))', 'i=1; i=$((i+1)); echo $i',
  'echo \\$HOME "\\$x" \'\\n\'', 'a=1 b=2; echo $a$b', 'export Z=9; echo $Z', 'echo "$#"', 'unset x; echo "[$x]"',
  // exit codes and control
  'true; echo $?', 'false; echo $?', 'false || echo fallback', 'true && echo both', 'false && echo never; echo $?',
  '! false; echo $?', 'true || echo skipped; echo end', 'exit 3', '(exit 4); echo $?', 'nosuchcommand 2>/dev/null; echo $?',
  'if [ -f a.txt ]; then echo file; else echo none; fi', 'if test -d src; then echo dir; fi', 'if [ 3 -gt 5 ]; then echo big; elif [ 3 -eq 3 ]; then echo eq; fi',
  'for i in 1 2 3; do echo n$i; done', 'for f in src/*.ts; do echo "$f"; done', 'n=0; while [ $n -lt 3 ]; do echo w$n; n=$((n+1)); done',
  'for f in *.txt; do wc -l < "$f"; done', '{ echo g1; echo g2; } > g.txt; cat g.txt', '[ -z "" ] && echo empty', '[ "a" = "b" ] || echo differ',
  'test -e missing.txt; echo $?', '[ -n "x" -a -f a.txt ] && echo ok', 'until [ -f u.txt ]; do touch u.txt; done; ls u.txt',
  // globbing
  'echo *.txt', 'echo src/*', 'echo */*.ts', 'echo nomatch*', 'echo "*.txt"', 'echo ?.txt', 'echo [ab].txt', 'echo src/*/*.js', 'ls *.csv',
  // redirections
  'echo hi > out.txt; cat out.txt', 'echo a > o.txt; echo b >> o.txt; cat o.txt', 'cat < a.txt | head -2', 'cat missing.txt 2>&1',
  'cat missing.txt 2>/dev/null; echo $?', 'cat a.txt missing.txt > both.txt 2>&1; cat both.txt', 'echo err 1>&2', 'echo x >&2 2>/dev/null',
  'cat <<EOF\nline $HOME\nEOF', "cat <<'EOF'\nraw $HOME\nEOF", 'cat > h.txt <<EOF\nhello\nthere\nEOF\nwc -l h.txt', 'wc -l < a.txt',
  'echo one > new/dir/x.txt; echo $?',
  // cat head tail
  'cat a.txt', 'cat -n b.txt', 'cat a.txt b.txt', 'head -2 a.txt', 'head -n 3 b.txt', 'head -n -2 a.txt', 'tail -2 a.txt', 'tail -n +3 a.txt',
  'tail -n 1 nonl.txt', 'head -c 5 a.txt', 'head a.txt b.txt', 'cat nonl.txt', 'cat missing.txt; echo $?',
  // grep
  'grep o a.txt', 'grep -n TODO src/main.ts', 'grep -i todo src/lib.ts', 'grep -v o a.txt', 'grep -c o a.txt', 'grep -l TODO src/*.ts',
  'grep -rn TODO . | sort', 'grep -r TODO src | sort', 'grep -w one a.txt b.txt', 'grep -x four a.txt', 'grep -E "t(wo|hree)" a.txt',
  'grep -F "." docs/readme.md', 'grep -o "an" words.txt', 'grep "^t" a.txt', 'grep "e$" a.txt', 'grep nomatch a.txt; echo $?',
  'grep -q one a.txt && echo found', 'grep -e one -e two a.txt', 'grep "[0-9]" b.txt', 'grep -h TODO src/main.ts src/lib.ts', 'grep "a\\{2\\}" words.txt; echo $?',
  'grep -rl TODO --include="*.ts" . | sort', 'grep x missing.txt; echo $?', 'grep -c "" a.txt b.txt',
  // sed
  "sed 's/o/0/' a.txt", "sed 's/o/0/g' b.txt", "sed -n '2,3p' a.txt", "sed '2d' a.txt", "sed '/t/d' a.txt", "sed -n '/^f/p' a.txt",
  "sed 's/\\(o\\)\\(n\\)/\\2\\1/' a.txt", "sed -E 's/(t)(w|h)/[\\1-\\2]/' a.txt", "sed 's/.*/[&]/' a.txt", "sed '$d' a.txt", "sed -n '$p' a.txt",
  "sed '1i header' a.txt", "sed '2a after' a.txt", "sed 'y/abc/xyz/' words.txt", "sed -i 's/one/ONE/' a.txt; cat a.txt", "sed 's|/|:|g' src/main.ts",
  "sed '3q' b.txt", "sed -e 's/a/A/' -e 's/e/E/' a.txt", "sed = a.txt", "sed '2,$s/^/> /' a.txt", "sed 's/x/y/' nonl.txt",
  // awk
  "awk '{print $1}' words.txt", "awk -F, '{print $2}' csv.csv", "awk -F, 'NR>1 {s+=$2} END {print s}' csv.csv", "awk '{print NR, NF}' words.txt",
  "awk '/apple/' words.txt", "awk 'length($0) > 4' a.txt", "awk -F, '$3==\"oslo\" {print $1}' csv.csv", "awk '{n++} END {print n}' a.txt",
  "awk 'BEGIN {x=3; y=4; print x*y, x/y}'", "awk '{print toupper($0)}' a.txt", "awk '{printf \"%-6s|%3d\\n\", $1, NR}' a.txt",
  "awk -F, '{a[$3]++} END {for (k in a) print k, a[k]}' csv.csv | sort", "awk '{ $2 = \"X\"; print }' words.txt", "awk 'NR==2, NR==4' a.txt",
  "awk '{print substr($0, 2, 3)}' a.txt", "awk '{gsub(/o/, \"0\"); print}' a.txt", "awk 'BEGIN{print index(\"hello\", \"ll\"), length(\"abc\")}'",
  "awk '{if ($1 > 5) print \"big\", $1; else print \"small\", $1}' nums.txt", "awk -v n=2 'NR==n' a.txt", "awk 'END {print NR}' a.txt b.txt",
  "awk '{s = s $1} END {print s}' a.txt", "awk 'BEGIN { for (i = 0; i < 3; i++) print i }'", "awk '{n=split($0, p, \" \"); print n, p[1]}' words.txt",
  "awk 'NF == 0 {print \"blank at\", NR}' words.txt", "awk '$1 ~ /^t/ {print}' a.txt", "awk 'BEGIN{printf \"%.2f %5.1f\\n\", 3.14159, 2.5}'",
  // wc sort uniq cut tr
  'wc a.txt', 'wc -l a.txt b.txt', 'wc -w words.txt', 'wc -c a.txt', 'cat a.txt | wc', 'cat a.txt | wc -l', 'wc nonl.txt',
  'sort b.txt', 'sort -r a.txt', 'sort -n nums.txt', 'sort -rn nums.txt', 'sort -u dup.txt', 'sort -t, -k2 csv.csv', 'sort -t, -k2 -n csv.csv',
  'sort dup.txt | uniq', 'sort dup.txt | uniq -c', 'uniq dup.txt', 'uniq -d dup.txt', 'uniq -u dup.txt', 'sort dup.txt | uniq -c | sort -rn | head -1',
  'cut -d, -f1 csv.csv', 'cut -d, -f1,3 csv.csv', 'cut -c1-3 a.txt', 'cut -d, -f2- csv.csv', "echo hello | tr a-z A-Z", "echo hello | tr -d l",
  "echo 'a  b   c' | tr -s ' '", "tr '[:lower:]' '[:upper:]' < a.txt", "echo abc | tr abc xyz", 'echo hello | rev',
  // files
  'ls', 'ls src', 'ls -a', 'ls -A src', 'ls missing; echo $?', 'ls -d src', 'ls src docs',
  'mkdir d1; ls -d d1', 'mkdir -p x/y/z; ls x/y', 'mkdir src; echo $?', 'touch t.txt; ls t.txt; cat t.txt', 'rm a.txt; ls a.txt; echo $?',
  'rm src; echo $?', 'rm -r src; ls', 'rm -rf nothere; echo $?', 'rmdir docs; echo $?', 'mkdir e; rmdir e; ls -d e; echo $?',
  'cp a.txt c.txt; cat c.txt', 'cp -r src src2; ls src2 src2/deep', 'cp a.txt docs; ls docs', 'mv a.txt moved.txt; ls *.txt',
  'mv src lib; ls lib', 'mv a.txt b.txt docs; ls docs', 'cp missing x; echo $?', 'cat "space name.txt"', 'ls "space name.txt"',
  'echo hi | tee t1.txt t2.txt; cat t1.txt t2.txt', 'echo x > src/deep/new.txt; ls src/deep',
  // find xargs diff misc
  'find . -name "*.ts" | sort', 'find src -type f | sort', 'find . -type d | sort', 'find src -maxdepth 1 | sort', 'find . -name "*.md" -o -name "*.js" | sort',
  'find . -path "*deep*" | sort', 'find . -iname "A.TXT"', 'find missing; echo $?', 'find . -name "*.ts" | wc -l', 'find src -name "*.ts" | xargs wc -l',
  'ls src/*.ts | xargs -n 1 echo file', 'echo a b c | xargs echo got', 'find . -name "*.txt" -type f | sort | xargs cat | wc -l',
  'diff a.txt b.txt', 'diff a.txt a.txt; echo $?', 'diff a.txt missing.txt; echo $?', 'printf "%s-%s\\n" a b c d', 'printf "%5d|%-5s|%x\\n" 42 ab 255',
  'printf "no newline"', 'printf "%s\\n" "$(ls src)"', 'basename /a/b/c.txt', 'basename src/main.ts .ts', 'dirname src/deep/util.js', 'dirname file',
  'seq 3', 'seq 2 5', 'seq 1 2 7', 'env | grep -c ^SANDPIT_NOPE=; echo done', 'echo $(( $(wc -l < a.txt) * 2 ))', 'cd src && ls && cd .. && ls -d src',
  'cd src; cat main.ts | grep -c TODO', 'cd src; pwd', 'sh -c "echo inner; exit 2"; echo $?', 'bash -c \'echo $0 $1\' zero one', 'ls | head -3 | tail -1',
  'cat a.txt | sort | uniq | wc -l', 'grep -c . a.txt b.txt | sort -t: -k2 -n', 'echo "a,b;c" | tr ",;" "\\n\\n"', 'echo $HOME',
];

/**
 * Lines whose output is known to differ from bash with GNU tools, and why. They still run (the
 * shell must not crash on them) but only the exit code is compared.
 */
export const KNOWN_DIFFERENCES: Record<string, string> = {
  // Known: `pwd` prints the root-relative folder ('/' is the workspace root), bash the host folder.
  'cd src; pwd': 'the shell shows the workspace root as /',
  // Known: jq 1.6 exits 4 on input that is not JSON; jq 1.7 and the manual say 2, as the shell does.
  'jq . json/bad.json; echo $?': 'jq 1.6 exits 4 on bad input, jq 1.7 (and the shell) 2',
};

/**
 * `jq` lines, run against the real jq only where one is installed (the differential test skips
 * them otherwise; test/shell/jq.test.ts checks the same subset against written-out answers).
 */
export const JQ_LINES: string[] = [
  'jq . json/data.json', 'jq -c . json/data.json', 'jq .name json/data.json', 'jq -r .name json/data.json', 'jq .nested.a.b json/data.json',
  "jq '.nested.a.b[1]' json/data.json", "jq '.tags[-1]' json/data.json", "jq '.[\"version\"]' json/data.json", "jq '.tags[]' json/data.json",
  "jq -r '.tags[]' json/data.json", 'jq keys json/data.json', "jq -c 'keys' json/people.json", "jq -c '.[2] | keys' json/people.json",
  'jq length json/data.json json/people.json', "jq '.tags | length' json/data.json", "jq -c '.[] | select(.city == \"oslo\") | .name' json/people.json",
  "jq -r '.[] | select(.age > 30) | .name' json/people.json", "jq -c 'map(.age)' json/people.json", "jq 'map(select(.admin)) | length' json/people.json",
  "jq -c '[.[] | {n: .name, old: (.age >= 30)}]' json/people.json", "jq -c '{name, count}' json/data.json", "jq -c '{(.name): .version}' json/data.json",
  "jq '.missing' json/data.json", "jq '.missing.deeper' json/data.json", "jq '.name.x' json/data.json; echo $?", "jq '.name.x?' json/data.json; echo $?",
  "jq '.count[]?' json/data.json; echo $?", "jq '.count[]' json/data.json; echo $?", "jq -c '.id, .v' json/stream.jsonl", "jq -c 'select(.v != null) | .id' json/stream.jsonl",
  "jq -s 'length' json/stream.jsonl", "jq -c -s 'map(.id)' json/stream.jsonl", "jq -n '1 + 2 * 3'", "jq -n '\"a\" + \"b\"'", "jq -n -c '[1,2] + [3]'",
  "jq -n '10 / 4, 10 % 3, -5 + 2'", "jq -n -c '{a: 1} + {b: 2}'", "jq -nr '\"x-\\(1 + 2)-y\"'", "jq -r '.[] | \"\\(.name) is \\(.age)\"' json/people.json",
  "jq '.nothing // \"fallback\"' json/data.json", "jq -c '[.[] | .age] | sort' json/people.json", "jq -c 'sort_by(.age) | map(.name)' json/people.json",
  "jq -r '.tags | join(\",\")' json/data.json", "jq '.ok and (.count > 2)' json/data.json", "jq 'if .count > 2 then \"many\" else \"few\" end' json/data.json",
  "jq -r '.deps | keys[]' json/data.json", "jq -c '.deps | to_entries | map(.key)' json/data.json", "jq -r '.[] | .city' json/people.json | sort | uniq -c",
  "cat json/people.json | jq '.[0].name'", "echo '{\"a\":[1,2,3]}' | jq '.a | add'", "echo '1 2 3' | jq -c '[., . * 2]'", 'jq . json/bad.json; echo $?',
  'jq . missing.json; echo $?', "jq '.[' json/data.json; echo $?", "jq 'nosuchfn' json/data.json; echo $?", 'jq; echo $?', "jq -c '.tags[1:]' json/data.json",
  "jq -n -c '[1,2,3] | map(. * 10) | .[1:]'", "jq -c '.[] | {name} | select(.name | startswith(\"b\"))' json/people.json",
  "jq '.version | split(\".\") | length' json/data.json", "jq -j '.tags[]' json/data.json; echo", "jq -c '[.[] | .age] | min, max' json/people.json",
  "jq -c '[.tags[] | ascii_upcase]' json/data.json", "jq '.count | tostring' json/data.json", "jq -n '\"3\" | tonumber + 1'", "jq 'has(\"name\"), has(\"zzz\")' json/data.json",
  "jq -c '[.[] | .admin // false]' json/people.json", "jq '.[] | select(.name == \"zed\")' json/people.json; echo $?", "jq -r '.tags | map(\"#\" + .) | .[]' json/data.json",
  "jq -c '[.[] | type]' json/data.json", "jq -n -c '[3,1,2] | reverse | first, last'", "jq -n 'null | length'", "jq '.[] | .name.first' json/people.json; echo $?",
  "jq '.id | .x' json/stream.jsonl; echo $?", "jq -r '.tags' json/data.json", "jq -c '.nested | [.. | numbers?]' json/data.json 2>/dev/null; echo $?",
  "jq -c '[.[] | .age > 30 or .admin == true]' json/people.json", "jq -n -c '[1, null, \"a\"] | map(. != null)'", "jq -c '[.[] | strings]' json/data.json",
];
