/**
 * The parts of echarts the app's charts use, registered once. Import this module lazily
 * (`import('../lib/echarts-bar')`) so echarts stays out of the startup bundle.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, DatasetComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use as register } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

register([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, DatasetComponent, AriaComponent, SVGRenderer]);

export { init };
