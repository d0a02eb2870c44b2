/**
 * A moment chosen as a day and a time of day, each a <select> that reads in Chinese
 * ("12月5日 周四", "18:00"). A native datetime-local shows the browser's own words and order
 * (mm/dd/yyyy, --:-- --) whatever the page's language.
 */
import { useMemo, useState } from 'react';
import './datetime.css';

/** How many days ahead, today included, the day list offers. */
const DAYS_OFFERED = 60;
/** The time list's step, in minutes. */
const STEP_MINUTES = 30;
const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];

const pad = (n: number) => String(n).padStart(2, '0');
/** A local day as datetime-local writes it (YYYY-MM-DD). */
const dayValue = (at: Date) => `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;

/** "12月5日 周四"; today and tomorrow say so. */
function dayLabel(value: string, today: string, tomorrow: string): string {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[new Date(year, month - 1, day).getDay()];
  const name = `${month}月${day}日 周${weekday}`;
  return value === today ? `${name}（今天）` : value === tomorrow ? `${name}（明天）` : name;
}

/** The time a day just picked starts at: the next whole step after now for today, otherwise 20:00. */
function firstTime(day: string, today: string, now: Date): string {
  if (day !== today) return '20:00';
  const minutes = Math.min(24 * 60 - STEP_MINUTES, (Math.floor((now.getHours() * 60 + now.getMinutes()) / STEP_MINUTES) + 1) * STEP_MINUTES);
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

export interface DateTimeSelectProps {
  id: string;
  label: string;
  /** A datetime-local value (YYYY-MM-DDTHH:mm), or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** What the day list says for none. */
  noneLabel: string;
  /** The moment "today" is counted from (the reader's clock). */
  now?: Date;
}

export function DateTimeSelect({ id, label, value, onChange, noneLabel, now: given }: DateTimeSelectProps) {
  const [now] = useState(() => given ?? new Date());
  const [day = '', time = ''] = value ? value.split('T') : [];
  const today = dayValue(now);
  const days = useMemo(() => {
    const list = Array.from({ length: DAYS_OFFERED }, (_, i) => dayValue(new Date(now.getFullYear(), now.getMonth(), now.getDate() + i)));
    // A day kept from before (a draft written days ago) stays choosable.
    return day && !list.includes(day) ? [day, ...list].sort() : list;
  }, [now, day]);
  const times = useMemo(() => {
    const list = Array.from({ length: (24 * 60) / STEP_MINUTES }, (_, i) => `${pad(Math.floor((i * STEP_MINUTES) / 60))}:${pad((i * STEP_MINUTES) % 60)}`);
    return time && !list.includes(time) ? [...list, time].sort() : list;
  }, [time]);
  const tomorrow = days[days.indexOf(today) + 1] ?? '';
  return (
    <div className="datetime-select">
      <label className="datetime-select__label" htmlFor={`${id}-day`}>
        {label}
      </label>
      <div className="datetime-select__row">
        <select
          id={`${id}-day`}
          className="datetime-select__day"
          value={day}
          onChange={(e) => onChange(e.target.value ? `${e.target.value}T${time || firstTime(e.target.value, today, now)}` : '')}
        >
          <option value="">{noneLabel}</option>
          {days.map((d) => (
            <option key={d} value={d}>
              {dayLabel(d, today, tomorrow)}
            </option>
          ))}
        </select>
        {day ? (
          <select
            id={`${id}-time`}
            className="datetime-select__time"
            aria-label={`${label}（时刻）`}
            value={time}
            onChange={(e) => onChange(`${day}T${e.target.value}`)}
          >
            {times.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        ) : null}
      </div>
    </div>
  );
}
