// Unwraps TF.js models that an npm package ships as JavaScript modules into the files TF.js itself
// loads: each MODEL/model.min.js exports the model JSON (an object), each MODEL/groupN-shardKofM.min.js
// exports a shard as a base64 string. Writes OUT/MODEL/model.json and OUT/MODEL/groupN-shardKofM, byte
// for byte what the package embeds (test.sh: the Keras layers models of nsfwjs, a real-file fixture).
// Usage: node scripts/unwrap-js-models.js SRC_MODELS_DIR OUT_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const [src, out] = process.argv.slice(2);
if (!src || !out) {
  console.error('usage: node scripts/unwrap-js-models.js SRC_MODELS_DIR OUT_DIR');
  process.exit(2);
}
for (const model of fs.readdirSync(src)) {
  const dir = path.join(src, model);
  const json = path.join(dir, 'model.min.js');
  if (!fs.existsSync(json)) continue;
  const into = path.join(out, model);
  fs.mkdirSync(into, { recursive: true });
  const m = require(path.resolve(json));
  fs.writeFileSync(path.join(into, 'model.json'), JSON.stringify(m.default || m));
  for (const f of fs.readdirSync(dir).filter((f) => /^group\d+-shard\d+of\d+\.min\.js$/.test(f))) {
    const s = require(path.resolve(dir, f));
    fs.writeFileSync(path.join(into, f.replace(/\.min\.js$/, '')), Buffer.from(s.default || s, 'base64'));
  }
}
