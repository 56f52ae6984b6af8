/*
 * Runs the referee box firmware in simavr with its UART on a pty.
 *
 *   uart_bridge build/referee_box.elf
 *
 * The first line on stdout is "pty /dev/pts/N": open that port as you would the box. After
 * it, one line per change of an output pin: its name (from board.h), its level and the
 * simulated time in milliseconds, e.g. "red 1 1203".
 * On stdin, "press" holds the button down for 100 ms, "reset" resets the AVR and "quit" ends
 * the bridge.
 * The firmware sleeps between bytes and ticks, so simavr runs it at about real time.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_time.h"

#include "../board.h"

static avr_t *pin_avr;  /* for the time stamps of pin changes */
static int master = -1;
static avr_irq_t *uart_in, *button;
static int uart_room = 1;  /* the UART's input buffer has room */
static uint8_t to_avr[256];
static ssize_t to_avr_len, to_avr_done;
static char command[64];
static size_t command_len;
static int reset_pending;

struct pin {
    const char *name;
    int bit;
    int level;
};

static struct pin pins[] = {
    {"buzzer", BOX_BUZZER, 0}, {"red", BOX_RED, 0}, {"green", BOX_GREEN, 0},
    {"blue", BOX_BLUE, 0}, {"alive", BOX_ALIVE, 0},
};

static void pin_changed(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    struct pin *pin = param;
    if ((int)value != pin->level) {  /* simavr reports every write of the port: print changes only */
        pin->level = value;
        printf("%s %u %lu\n", pin->name, value, (unsigned long)(pin_avr->cycle / (pin_avr->frequency / 1000)));
        fflush(stdout);
    }
}

static void uart_out(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq, (void)param;
    uint8_t byte = value;
    if (write(master, &byte, 1) < 0 && errno != EAGAIN)
        perror("uart_bridge: pty");
}

static void uart_xon(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq, (void)value, (void)param;
    uart_room = 1;
}

static void uart_xoff(avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq, (void)value, (void)param;
    uart_room = 0;
}

static avr_cycle_count_t release_button(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)avr, (void)when, (void)param;
    avr_raise_irq(button, 1);
    return 0;
}

static void run_command(avr_t *avr) {
    if (!strcmp(command, "press")) {
        avr_raise_irq(button, 0);
        avr_cycle_timer_register_usec(avr, 100000, release_button, NULL);
    } else if (!strcmp(command, "reset")) {
        reset_pending = 1;  /* not from inside a cycle timer: avr_reset clears them all */
    } else if (!strcmp(command, "quit")) {
        exit(0);
    } else {
        fprintf(stderr, "uart_bridge: unknown command '%s' (press, reset, quit)\n", command);
    }
}

/* Every simulated millisecond: bytes from the pty into the UART, commands from stdin. */
static avr_cycle_count_t poll_io(avr_t *avr, avr_cycle_count_t when, void *param) {
    (void)param;
    if (to_avr_done == to_avr_len) {
        to_avr_len = read(master, to_avr, sizeof to_avr);
        to_avr_done = 0;
        if (to_avr_len < 0) to_avr_len = 0;
    }
    while (uart_room && to_avr_done < to_avr_len)
        avr_raise_irq(uart_in, to_avr[to_avr_done++]);

    char c;
    while (read(STDIN_FILENO, &c, 1) == 1) {
        if (c == '\n') {
            command[command_len] = 0;
            run_command(avr);
            command_len = 0;
        } else if (command_len < sizeof command - 1) {
            command[command_len++] = c;
        }
    }
    return when + avr_usec_to_cycles(avr, 1000);
}

/* simavr's own messages go to stderr: stdout carries only the pty path and the pins. */
static void log_to_stderr(avr_t *avr, const int level, const char *format, va_list ap) {
    if (!avr || level <= avr->log) vfprintf(stderr, format, ap);
}

int main(int argc, char **argv) {
    avr_global_logger_set(log_to_stderr);
    if (argc != 2) {
        fprintf(stderr, "usage: uart_bridge FIRMWARE.elf\n");
        return 2;
    }
    elf_firmware_t firmware = {0};
    if (elf_read_firmware(argv[1], &firmware) != 0) {
        fprintf(stderr, "uart_bridge: cannot read %s\n", argv[1]);
        return 1;
    }
    avr_t *avr = avr_make_mcu_by_name("atmega328p");
    if (!avr) return 1;
    avr_init(avr);
    avr->frequency = 16000000;
    avr_load_firmware(avr, &firmware);
    pin_avr = avr;

    int slave;
    char path[64];
    if (openpty(&master, &slave, path, NULL, NULL) < 0) {
        perror("uart_bridge: openpty");
        return 1;
    }
    /* Raw, so the pty neither echoes the box's lines back to it nor waits for whole lines;
     * the slave stays open here so that a host closing the port does not hang the pty up. */
    struct termios raw;
    tcgetattr(slave, &raw);
    cfmakeraw(&raw);
    tcsetattr(slave, TCSANOW, &raw);
    fcntl(master, F_SETFL, O_NONBLOCK);
    fcntl(STDIN_FILENO, F_SETFL, O_NONBLOCK);

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~AVR_UART_FLAG_STDIO;  /* the UART's bytes go to the pty, not to simavr's log */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff, NULL);

    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++)
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(BOX_OUT_PORT), pins[i].bit),
                                pin_changed, &pins[i]);
    button = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(BOX_BUTTON_PORT), BOX_BUTTON);
    avr_raise_irq(button, 1);  /* released: what the pull-up reads */

    avr_cycle_timer_register_usec(avr, 1000, poll_io, NULL);
    printf("pty %s\n", path);
    fflush(stdout);

    int state;
    do {
        state = avr_run(avr);
        if (reset_pending) {  /* as the reset pin does: the firmware starts again and says READY */
            reset_pending = 0;
            avr_reset(avr);
            /* The reset zeroed the PIN register but not the IRQ's value, so a plain raise of 1
             * would be filtered out as no change: go through 0, within the same cycle. */
            avr_raise_irq(button, 0);
            avr_raise_irq(button, 1);
            uart_room = 1;  /* the reset emptied the UART's input buffer */
            avr_cycle_timer_register_usec(avr, 1000, poll_io, NULL);
        }
    } while (state != cpu_Done && state != cpu_Crashed);
    fprintf(stderr, "uart_bridge: firmware stopped (%s)\n", state == cpu_Done ? "done" : "crashed");
    return 1;
}
