export interface ProgressBar {
  show(position: number, total: number): void;
  end(total: number): void;
}

/** On a terminal, one line rewritten in place; elsewhere (a log file, CI), a line per tenth of the way. */
export const progressBar = (tty: boolean, write: (text: string) => void, width = 30): ProgressBar => {
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
      write(`store migration: ${tenth * 10}% (${position}/${total} events)\n`);
    },
    end(total) {
      write(
        `${tty ? '\n' : ''}store migration: done, ${total} events projected into the external store in ${Math.round(performance.now() - started) / 1000} s\n`,
      );
    },
  };
};
