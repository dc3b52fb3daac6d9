export interface ProgressBar {
  show(position: number, total: number): void;
  end(total: number): void;
}

/** On a terminal, one line rewritten in place; elsewhere (a log file, CI), a line per tenth of the way. */
/** What the lines call the work and its outcome. */
export interface ProgressWording {
  name: string;
  done: string;
}

const storeMigration: ProgressWording = { name: 'store migration', done: 'projected into the external store' };

export const progressBar = (tty: boolean, write: (text: string) => void, width = 30, wording = storeMigration): ProgressBar => {
  const started = performance.now();
  let lastTenth = -1;
  const rate = (position: number) => Math.round(position / Math.max(0.001, (performance.now() - started) / 1000));
  return {
    show(position, total) {
      const fraction = total === 0 ? 1 : position / total;
      if (tty) {
        const filled = Math.round(fraction * width);
        write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(fraction * 100)}% ${position}/${total} events, ${rate(position)}/s`);
        return;
      }
      const tenth = Math.floor(fraction * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      write(`${wording.name}: ${tenth * 10}% (${position}/${total} events)\n`);
    },
    end(total) {
      write(`${tty ? '\n' : ''}${wording.name}: done, ${total} events ${wording.done} in ${Math.round(performance.now() - started) / 1000} s\n`);
    },
  };
};
