import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';

// Answers written out by hand (checked once against jq 1.6), so this runs where no jq is installed.
const PEOPLE =
  '[{"name":"ann","age":31,"city":"oslo"},{"name":"bob","age":25,"city":"rome"},{"name":"cid","age":40,"city":"oslo","admin":true}]\n';
const DATA =
  '{"name":"sandpit","tags":["fs","shell"],"deps":{"b":"2","a":"1"},"n":3,"nested":{"x":[10,20]},"none":null}\n';

async function jq(command: string) {
  const ws = createWorkspace({
    fs: createMemoryFs({
      '/people.json': PEOPLE,
      '/data.json': DATA,
      '/s.jsonl': '{"id":1}\n{"id":2}{"id":3}\n',
      '/bad.json': '{"a":,}\n',
    }),
    snapshots: false,
  });
  const r = await ws.call('run_command', { command });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return { out: r.result.stdout, err: r.result.stderr, code: r.result.exit_code };
}

describe('jq in the built-in shell', () => {
  it('pretty-prints by default, compacts with -c and prints strings raw with -r', async () => {
    expect((await jq('jq .deps data.json')).out).toBe('{\n  "b": "2",\n  "a": "1"\n}\n');
    expect((await jq('jq -c .nested data.json')).out).toBe('{"x":[10,20]}\n');
    expect((await jq('jq .name data.json; jq -r .name data.json')).out).toBe('"sandpit"\nsandpit\n');
    expect((await jq("jq -j '.tags[]' data.json")).out).toBe('fsshell');
  });

  it('follows paths, indexes, slices and iterates, with ? silencing errors', async () => {
    const cases: Array<[string, string]> = [
      ['jq \'.nested.x[1], .tags[-1], .["name"], .missing.deeper\' data.json', '20\n"shell"\n"sandpit"\nnull\n'],
      ["jq -c '.nested.x[1:], .tags[:1]' data.json", '[20]\n["fs"]\n'],
      ["jq -r '.tags[]' data.json", 'fs\nshell\n'],
      ["jq -c '.deps | keys, length' data.json", '["a","b"]\n2\n'],
      ["jq '.n[]?, .name.x?' data.json; echo $?", '0\n'],
      ["jq -c '[.. | numbers]' data.json", '[3,10,20]\n'],
    ];
    for (const [line, want] of cases) expect((await jq(line)).out, line).toBe(want);
  });

  it('filters with select and map, builds objects and arrays, and compares', async () => {
    const cases: Array<[string, string]> = [
      ['jq -c \'.[] | select(.city == "oslo") | .name\' people.json', '"ann"\n"cid"\n'],
      ["jq -c 'map(.age) | sort, add, min, max' people.json", '[25,31,40]\n96\n25\n40\n'],
      [
        "jq -c '[.[] | {n: .name, old: (.age >= 30)}]' people.json",
        '[{"n":"ann","old":true},{"n":"bob","old":false},{"n":"cid","old":true}]\n',
      ],
      ["jq -c '{name, n, (.name): .n}' data.json", '{"name":"sandpit","n":3,"sandpit":3}\n'],
      ["jq -c 'sort_by(.age) | map(.name)' people.json", '["bob","ann","cid"]\n'],
      ["jq -c '[.[] | .admin // false]' people.json", '[false,false,true]\n'],
      ['jq -r \'.[] | "\\(.name) is \\(.age)"\' people.json', 'ann is 31\nbob is 25\ncid is 40\n'],
      ['jq -r \'if .n > 2 then "many" elif .n > 0 then "some" else "none" end\' data.json', 'many\n'],
      [
        'jq -n -c \'1 + 2 * 3, 10 % 3, [1,2] + [3], {a: 1} + {b: 2}, "a" + "b", (1,2) + (10,20)\'',
        '7\n1\n[1,2,3]\n{"a":1,"b":2}\n"ab"\n11\n12\n21\n22\n',
      ],
      ["jq -c 'map(select(.admin)) | length' people.json", '1\n'],
      ['jq -r \'.tags | join(",")\' data.json', 'fs,shell\n'],
    ];
    for (const [line, want] of cases) expect((await jq(line)).out, line).toBe(want);
  });

  it('reads a stream of values, slurps with -s, and runs on null with -n', async () => {
    expect((await jq('jq -c .id s.jsonl')).out).toBe('1\n2\n3\n');
    expect((await jq("jq -c -s 'map(.id)' s.jsonl")).out).toBe('[1,2,3]\n');
    expect((await jq("echo '1 2' | jq -c '[., . * 2]'")).out).toBe('[1,2]\n[2,4]\n');
    expect((await jq("jq -n 'null | length'")).out).toBe('0\n');
  });

  it("answers errors with jq's statuses: 5 at run time, 3 for a bad filter, 2 for bad input or files", async () => {
    const runtime = await jq("jq '.[] | .name.first' people.json");
    expect(runtime).toMatchObject({ code: 5, out: '' });
    expect(runtime.err).toMatch(/^jq: error \(at people\.json\): Cannot index string with "first"\n$/);
    // a runtime error ends that input only: the next input still runs
    expect(await jq("jq '.id | .x' s.jsonl")).toMatchObject({ code: 5, out: '' });
    expect(await jq("jq -c '.[' data.json")).toMatchObject({
      code: 3,
      out: '',
      err: expect.stringMatching(/compile error/),
    });
    expect(await jq("jq 'nosuch(1)' data.json")).toMatchObject({
      code: 3,
      err: expect.stringMatching(/nosuch\/1 is not defined/),
    });
    expect(await jq('jq . bad.json')).toMatchObject({ code: 2, err: expect.stringMatching(/bad\.json/) });
    expect(await jq('jq . missing.json data.json')).toMatchObject({
      code: 2,
      out: expect.stringContaining('"sandpit"'),
      err: 'jq: error: Could not open missing.json: No such file or directory\n',
    });
  });
});
