/*
 * The referee box firmware: an ATmega328P (Arduino Uno or Nano) at 16 MHz, avr-libc only.
 *
 * It speaks the line protocol of ../PROTOCOL.md on the UART at 115200 baud, lights its RGB LED
 * in the colour of the newest call nobody has answered, plays the call's buzzer pattern once,
 * and sends BTN when the referee presses the button. Wiring: board.h.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <util/atomic.h>

#include "board.h"

#define NAME "gammonbox"
#define VERSION "1"
#define MAX_LINE 64          /* newline included, as in the protocol */
#define MEMORY 8             /* calls remembered; a ninth pushes out the oldest */
#define STEP_MS 100          /* one character of a buzzer pattern */
#define DEBOUNCE_MS 20
#define HOST_ALIVE_MS 3500   /* the host pings every second */

#define RED _BV(BOX_RED)
#define GREEN _BV(BOX_GREEN)
#define BLUE _BV(BOX_BLUE)
#define LED_PINS (RED | GREEN | BLUE)

/* What the box shows for each kind: the table of PROTOCOL.md and device/protocol.py. */
struct kind {
    const char *name;
    uint8_t colour;      /* LED pins on port B */
    const char *buzzer;  /* one character per 100 ms: 'x' sounds, '.' is silent */
};

static const struct kind kinds[] = {
    {"ILLEGAL_PLAY", RED, "x.x.x"},
    {"ILLEGAL_DOUBLE", RED | BLUE, "xxx..xxx"},
    {"REROLL", BLUE, "x"},
    {"UNCLEAR", RED | GREEN, ""},
    {"GAME_OVER", GREEN, "xxxxxx"},
    {0, RED | GREEN | BLUE, "x.x"},  /* any other kind: the generic call, last */
};

struct call {
    uint16_t seq;     /* 0: an empty slot */
    uint8_t kind;     /* index in kinds[] */
    uint8_t showing;  /* neither answered by the button nor cleared */
};

static struct call calls[MEMORY];
static uint8_t newest;  /* the slot of the newest call */

static volatile uint16_t ms;  /* milliseconds, from timer 0 */
static volatile uint8_t rx[64];
static volatile uint8_t rx_head, rx_tail;

ISR(TIMER0_COMPA_vect) { ms++; }

ISR(USART_RX_vect) {
    uint8_t c = UDR0;
    uint8_t next = (rx_head + 1) % sizeof rx;
    if (next != rx_tail) {  /* a full buffer drops the byte; the host sends the call again */
        rx[rx_head] = c;
        rx_head = next;
    }
}

static uint16_t now(void) {
    uint16_t t;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { t = ms; }
    return t;
}

static void put(const char *s) {
    while (*s) {
        loop_until_bit_is_set(UCSR0A, UDRE0);
        UDR0 = *s++;
    }
}

static void put_seq(const char *command, uint16_t seq) {
    char digits[6];
    put(command);
    put(" ");
    put(utoa(seq, digits, 10));
    put("\n");
}

/* 1..65535 in at most five digits, or 0 for anything else. */
static uint16_t parse_seq(const char *s) {
    uint32_t n = 0;
    uint8_t len = 0;
    if (!s) return 0;
    for (; *s; s++, len++) {
        if (*s < '0' || *s > '9' || len == 5) return 0;
        n = 10 * n + (*s - '0');
    }
    return n <= 65535 ? n : 0;
}

static const char *tune;  /* the buzzer pattern playing, or 0 */
static uint8_t tune_step;
static uint16_t tune_at;

static void relight(void) {
    uint8_t colour = 0;
    for (uint8_t i = 0; i < MEMORY; i++) {
        struct call *c = &calls[(newest + MEMORY - i) % MEMORY];
        if (c->seq && c->showing) {
            colour = kinds[c->kind].colour;
            break;
        }
    }
    PORTB = (PORTB & ~LED_PINS) | colour;
}

static struct call *find(uint16_t seq) {
    for (uint8_t i = 0; i < MEMORY; i++)
        if (calls[i].seq == seq) return &calls[i];
    return 0;
}

static void call(uint16_t seq, const char *kind_name) {
    /* A call sent again (its ACK was lost) is not shown again, nor once answered or cleared. */
    if (!find(seq)) {
        uint8_t k = 0;
        while (kinds[k].name && strcmp(kinds[k].name, kind_name)) k++;
        newest = (newest + 1) % MEMORY;
        calls[newest] = (struct call){seq, k, 1};
        tune = kinds[k].buzzer;
        tune_step = 0;
        tune_at = now();
        relight();
    }
    put_seq("ACK", seq);
}

static void clear(uint16_t seq) {
    struct call *c = find(seq);
    if (c) c->showing = 0;
    relight();
    put_seq("ACK", seq);
}

static void answer(void) {
    for (uint8_t i = 0; i < MEMORY; i++) calls[i].showing = 0;
    tune = 0;
    PORTB &= ~_BV(BOX_BUZZER);
    relight();
    put("BTN\n");
}

/* One line from the host. Lines this box cannot use are ignored: the host logs what matters. */
static void handle(char *line) {
    char *arg = strchr(line, ' ');
    if (arg) *arg++ = 0;
    if (!strcmp(line, "HELLO")) {
        put("READY " NAME " " VERSION "\n");
    } else if (!strcmp(line, "PING")) {
        uint16_t seq = parse_seq(arg);
        if (seq) put_seq("PONG", seq);
    } else if (!strcmp(line, "CALL") && arg) {
        char *kind = strchr(arg, ' ');
        if (!kind) return;
        *kind++ = 0;
        uint16_t seq = parse_seq(arg);
        if (seq && *kind) call(seq, kind);
    } else if (!strcmp(line, "CLEAR")) {
        uint16_t seq = parse_seq(arg);
        if (seq) clear(seq);
    }
    /* STATE: this box has no display. */
}

int main(void) {
    DDRB = _BV(BOX_BUZZER) | LED_PINS | _BV(BOX_ALIVE);
    PORTD |= _BV(BOX_BUTTON);  /* pull-up: the button pulls the pin low */

    UCSR0A = _BV(U2X0);  /* 115200 baud at 16 MHz is 2.1% off with U2X, 3.5% without */
    UBRR0 = F_CPU / (8 * BOX_BAUD) - 1;
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);

    TCCR0A = _BV(WGM01);  /* 1 kHz: 16 MHz / 64 / 250 */
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    sei();

    put("READY " NAME " " VERSION "\n");

    char line[MAX_LINE];
    uint8_t len = 0, overlong = 0;
    uint16_t last = now(), heard = last - HOST_ALIVE_MS, stable_since = last;
    uint8_t pressed = 0;

    for (;;) {
        while (rx_tail != rx_head) {
            char c = rx[rx_tail];
            rx_tail = (rx_tail + 1) % sizeof rx;
            if (c == '\n') {
                if (len && line[len - 1] == '\r') len--;
                line[len] = 0;
                if (!overlong) handle(line);
                heard = now();
                len = overlong = 0;
            } else if (len < MAX_LINE - 1) {
                line[len++] = c;
            } else {
                overlong = 1;
            }
        }

        uint16_t t = now();
        if (t != last) {
            last = t;
            uint8_t down = bit_is_clear(PIND, BOX_BUTTON);
            if (down == pressed) {
                stable_since = t;
            } else if ((uint16_t)(t - stable_since) >= DEBOUNCE_MS) {
                pressed = down;
                if (pressed) answer();
            }
            if (tune && (uint16_t)(t - tune_at) >= STEP_MS * tune_step) {
                if (tune[tune_step] == 'x') PORTB |= _BV(BOX_BUZZER);
                else PORTB &= ~_BV(BOX_BUZZER);
                if (!tune[tune_step]) tune = 0;
                else tune_step++;
            }
            if ((uint16_t)(t - heard) < HOST_ALIVE_MS) PORTB |= _BV(BOX_ALIVE);
            else PORTB &= ~_BV(BOX_ALIVE);
        }

        /* Sleep until the next byte or tick; interrupts stay off between the test and the sleep. */
        cli();
        if (rx_tail == rx_head) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
