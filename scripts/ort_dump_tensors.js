// Runs an ONNX model in ONNX Runtime's CPU execution provider (the onnxruntime-node binding that
// scripts/fetch_onnxruntime.sh unpacks: run with NODE_PATH set to its node_modules) and dumps every graph output.
//   node scripts/ort_dump_tensors.js MODEL.onnx DIR
// DIR/inputs.json names the inputs: [{"name": "input", "type": "float32", "dims": [1,3,224,224], "file": "input.bin"}]
// (raw little-endian data in DIR). Writes DIR/outputs.json in the same form and one raw file per output
// (out_<index>.bin). Called by scripts/ort_per_layer.py, which exposes every intermediate tensor as an output first.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const typedArrays = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
  uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array,
};

async function main() {
  const [model, dir] = process.argv.slice(2);
  if (!model || !dir) throw new Error('usage: node ort_dump_tensors.js MODEL.onnx DIR');
  const feeds = {};
  for (const input of JSON.parse(fs.readFileSync(path.join(dir, 'inputs.json'), 'utf8'))) {
    const bytes = fs.readFileSync(path.join(dir, input.file));
    const Array_ = typedArrays[input.type];
    const data = new Array_(bytes.buffer, bytes.byteOffset, bytes.byteLength / Array_.BYTES_PER_ELEMENT);
    feeds[input.name] = new ort.Tensor(input.type, data, input.dims);
  }
  // One thread, no graph optimisation: every node runs as written (no fusion of a node into its neighbour), so each
  // dumped tensor is what that node computes.
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'], graphOptimizationLevel: 'disabled', intraOpNumThreads: 1, interOpNumThreads: 1,
  });
  const results = await session.run(feeds);
  const outputs = [];
  session.outputNames.forEach((name, i) => {
    const t = results[name];
    const file = `out_${i}.bin`;
    fs.writeFileSync(path.join(dir, file), Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    outputs.push({name, type: t.type, dims: t.dims, file});
  });
  fs.writeFileSync(path.join(dir, 'outputs.json'), JSON.stringify(outputs));
  console.log(`ort_dump_tensors: onnxruntime-node ${ort.env.versions.node}: ${outputs.length} tensors of ${model}`);
}

main().catch((e) => { console.error(`ort_dump_tensors: ${e.message}`); process.exit(1); });
