// The chart library (uPlot, MIT), built on its own into dist/inspector/uplot.js: the page loads it only when the
// Timeline is first shown, so the other sections paint as fast as they did without it.
export { default } from 'uplot';
