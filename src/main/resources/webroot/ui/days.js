// Days and times in a named time zone (the funnel report's), as Intl tells them.

export function browserZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A time in a time zone (the browser's when the zone is not one Intl knows), as the parts Intl makes. */
function zoned(date, zone, options) {
  let format;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, ...options });
  } catch (unknownZone) {
    format = new Intl.DateTimeFormat('en-US', options);
  }
  const parts = format.formatToParts(date);
  return (type) => parts.find((p) => p.type === type).value;
}

/** The day of a time in a time zone, as YYYY-MM-DD. */
function localDay(date, zone) {
  const part = zoned(date, zone, { year: 'numeric', month: '2-digit', day: '2-digit' });
  return part('year') + '-' + part('month') + '-' + part('day');
}

export function today(zone) {
  return localDay(new Date(), zone);
}

export function addDays(day, days) {
  const date = new Date(day + 'T00:00:00Z');
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A time as HH:MM in a time zone, with the day when it is not today. */
export function timeInZone(iso, zone) {
  const at = new Date(iso);
  const part = zoned(at, zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const time = part('hour') + ':' + part('minute');
  const day = localDay(at, zone);
  return day === today(zone) ? time : day + ' ' + time;
}
