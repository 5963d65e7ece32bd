/**
 * The echarts pieces of the admin charts (lines and bars, SVG), registered once. Imported lazily by
 * components/admin-chart.tsx so echarts stays out of the startup bundle.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as register } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

register([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, AriaComponent, SVGRenderer]);

export { init };
