// Bite registration kernels (docs/geometry.md, "Bite registration"): samples
// and FPFH descriptors (bite-sample.ts), correspondences and RANSAC
// (bite-ransac.ts), ICP, fit scores and penetration (bite-icp.ts).
export { biteVoxelSample, biteFpfh, biteDescriptorSpread } from './bite-sample';
export { biteMatch, biteRansac, biteRansacTested } from './bite-ransac';
export { biteIcp, biteFit, bitePenetration, biteBoxFilter, biteLastRms, biteLastIterations, biteLastDeepCount } from './bite-icp';
