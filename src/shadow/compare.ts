// The comparison of a mock's answer with the target's: the conformance command's own, so both report the same differences.
export { compareAnswers } from '../conformance/index.js';
