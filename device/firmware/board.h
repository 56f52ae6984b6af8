/*
 * The referee box's wiring on an Arduino Uno or Nano (ATmega328P, 16 MHz).
 * Shared by the firmware and the simavr bridge, so the pins are named once.
 *
 *   D8  (PB0)  buzzer, active (it sounds while the pin is high)
 *   D9  (PB1)  LED red    \
 *   D10 (PB2)  LED green   > an RGB LED, common cathode, each through 220 ohm
 *   D11 (PB3)  LED blue   /
 *   D13 (PB5)  the on-board LED: lit while the host is heard
 *   D2  (PD2)  the button, to ground (internal pull-up)
 */
#ifndef BOARD_H
#define BOARD_H

#define BOX_OUT_PORT 'B'   /* every output is on port B */
#define BOX_BUZZER 0
#define BOX_RED 1
#define BOX_GREEN 2
#define BOX_BLUE 3
#define BOX_ALIVE 5

#define BOX_BUTTON_PORT 'D'
#define BOX_BUTTON 2

#define BOX_BAUD 115200UL

#endif
