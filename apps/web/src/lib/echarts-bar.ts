/**
 * The parts of echarts the charts of components/echart.tsx use (bars and lines, SVG so they stay
 * crisp and readable in screenshots), registered once. Import this module lazily
 * (`import('../lib/echarts-bar')`) so echarts stays out of the startup bundle.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as register } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

register([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, AriaComponent, SVGRenderer]);

export { init };
