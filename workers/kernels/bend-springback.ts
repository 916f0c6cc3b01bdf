// Springback compensation for the bend kernels: the rule is the product's (common/springback.ts),
// shared with the back office's calibration checks and the editor.
export {
  compensateAngle,
  type SpringbackTable,
  springbackAt,
  springbackResult,
  springbackTableProblem,
} from '../../common/springback.ts';
