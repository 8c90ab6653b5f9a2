// Spawned once per measurement, as a fresh process on the Lambda runtime's Node major: imports one built
// bundle and prints how long the import took (module evaluation included, which is what a cold start pays
// before the first invocation). Plain JavaScript: it runs without tsx.
import { pathToFileURL } from 'node:url';

const started = performance.now();
await import(pathToFileURL(process.argv[2]).href);
const importMs = performance.now() - started;
process.stdout.write(JSON.stringify({ node: process.versions.node, importMs }));
