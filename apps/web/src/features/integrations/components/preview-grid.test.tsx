import { screen } from '@testing-library/react';
import type { RoboflowPreview } from '@sightline/contracts';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../../../test/render';
import { PreviewGrid } from './preview-grid';

const preview = (id: string, boxes: RoboflowPreview['boxes']): RoboflowPreview => ({
  id,
  name: `${id}.jpg`,
  split: 'train',
  labels: [...new Set(boxes.map((b) => b.label))],
  width: 64,
  height: 48,
  image: 'data:image/jpeg;base64,AAAA',
  boxes,
});

describe('Roboflow preview grid', () => {
  it('draws each box from its centre and size, polygons as polygons, and lists the labels', () => {
    const previews = [
      preview('a', [{ label: 'circle', x: 19.2, y: 19.2, width: 19.2, height: 19.2 }]),
      preview('b', [
        {
          label: 'square',
          x: 32,
          y: 24,
          width: 10,
          height: 8,
          points: [
            { x: 1, y: 2 },
            { x: 3, y: 4 },
            { x: 5, y: 1 },
          ],
        },
      ]),
    ];
    renderRoutes([{ path: '/', element: <PreviewGrid previews={previews} classes={['circle', 'square']} loading={false} /> }], { user: null });
    const cards = screen.getAllByTestId('roboflow-preview');
    expect(cards).toHaveLength(2);
    const rect = cards[0]!.querySelector('rect[data-label="circle"]')!;
    expect([rect.getAttribute('x'), rect.getAttribute('y'), rect.getAttribute('width'), rect.getAttribute('height')]).toEqual(['9.6', '9.6', '19.2', '19.2']);
    expect(cards[0]!.querySelector('svg')!.getAttribute('viewBox')).toBe('0 0 64 48');
    expect(cards[1]!.querySelector('polygon[data-label="square"]')!.getAttribute('points')).toBe('1,2 3,4 5,1');
    expect(cards[1]).toHaveTextContent('square');
    expect(screen.getByAltText('a.jpg')).toHaveAttribute('src', 'data:image/jpeg;base64,AAAA');
  });
});
