-- Admin analytics rollup (issue 15, ADR 0015): event counts per closed day / ISO week and name,
-- plus the distinct active users ('~active') and a marker that the bucket was computed ('~done').
-- Closed buckets never change (events are written with the current time), so each is aggregated
-- from analytics_events once; the open bucket is always counted live.
CREATE TABLE analytics_rollup (
  period text NOT NULL,
  bucket text NOT NULL, -- YYYY-MM-DD (UTC day, or the Monday of the ISO week)
  name text NOT NULL,
  count bigint NOT NULL,
  PRIMARY KEY (period, bucket, name)
);
