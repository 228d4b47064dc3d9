// Runner for the project-wide conformance kit; filled in when its index
// format is known (phase B).
export async function runConformance(dir, index) {
  throw new Error(`conformance kit index ${dir}/${index}: format not implemented yet`);
}
