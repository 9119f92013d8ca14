/* Garnsi-Malom on 6x6 (garnsi-6x6.rules), placement phase only: a depth-bounded SPIN model. */

/*
 * Rules as in bench/hand/garnsi6_placement.h: players p1..p6 in seat order, 6 pieces
 * each; place(c) when the mover has a piece in hand, c is empty, c is not blocked, and no
 * piece of the mover is in c's row, column or 2x3 box; pass when the mover cannot place;
 * the turn passes to the next seat; the phase is over once no player can place.
 *
 * Every move is one d_step, so a move is one transition and SPIN stores exactly one state
 * per position reached (no intermediate states). `ply` bounds the search: with it in the
 * state vector, "states stored" is the sum over depths 0..DEPTH of the distinct positions
 * at each depth (a position reachable at two depths is stored once per depth).
 *
 * Only owner[], turn and ply carry information; hand[], the used_* masks, over and
 * mover_can are functions of them, kept so that a move's guard is one expression. They
 * are in the state vector but cannot split a state.
 */

#ifndef DEPTH
#define DEPTH 5
#endif
#ifndef BLOCKED0
#define BLOCKED0 0     /* (0,0) as row * 6 + col */
#endif
#ifndef BLOCKED1
#define BLOCKED1 35    /* (5,5) */
#endif

byte owner[36];          /* 0: empty; else the seat number 1..6 of the piece's owner */
byte turn;               /* seat index 0..5 of the player to move */
byte ply;                /* moves played so far */

byte hand[6] = 6;        /* derived: 6 minus the player's pieces on the board */
byte used_row[6];        /* derived: bit r set when the player has a piece in row r */
byte used_col[6];
byte used_box[6];
bit over;                /* derived: no player can place; the phase has ended */
bit mover_can = 1;       /* derived: the player to move can place */

/* Loop counters of update(), 0 again at the end of every move, so they never split a
 * state. (Not `hidden`: pan's -DBFS refuses hidden variables.) */
byte q;
byte i;

#define ROW(c) ((c) / 6)
#define COL(c) ((c) % 6)
#define BOX(c) (ROW(c) / 2 * 2 + COL(c) / 3)
#define CAN(p, c) (owner[c] == 0 && (c) != BLOCKED0 && (c) != BLOCKED1 && hand[p] > 0 && \
                   ((used_row[p] >> ROW(c)) & 1) == 0 && ((used_col[p] >> COL(c)) & 1) == 0 && \
                   ((used_box[p] >> BOX(c)) & 1) == 0)

/* Recomputes the two derived flags after a move (the turn has already passed). */
inline update() {
  over = 1;
  mover_can = 0;
  q = 0;
  do
  :: q < 6 ->
     i = 0;
     do
     :: i < 36 ->
        if
        :: CAN(q, i) -> over = 0; mover_can = mover_can | (q == turn)
        :: else -> skip
        fi;
        i++
     :: else -> break
     od;
     q++
  :: else -> break
  od;
  q = 0;   /* a statement after the loop keeps its `break` inside the d_step */
  i = 0
}

/* The effects of place(c) and pass; the guards are in the loop below. */
inline place(c) {
  owner[c] = turn + 1;
  hand[turn]--;
  used_row[turn] = used_row[turn] | (1 << ROW(c));
  used_col[turn] = used_col[turn] | (1 << COL(c));
  used_box[turn] = used_box[turn] | (1 << BOX(c));
  ply++;
  turn = (turn + 1) % 6;
  update()
}

inline pass() {
  ply++;
  turn = (turn + 1) % 6;
  update()
}

/* One move = one d_step = one transition. */
#define PLACE(c) :: d_step { ply < DEPTH && !over && CAN(turn, c) -> place(c) }

active proctype placement() {
#ifdef OPENING
  /* Moves played before the search, from opening.pml (found through -E-I<dir>): one
   * `play(c);` or `play_pass;` per line (bench/spin/README.md shows how to write it). It
   * adds one stored state, the empty board before the opening; ply restarts at 0 after. */
  d_step {
#define play(c) assert(!over && CAN(turn, c)); place(c)
#define play_pass assert(!over && !mover_can); pass()
#include "opening.pml"
    ply = 0
  };
#endif
  /* The loop head is a valid end state: the depth bound or the end of the phase. */
end:
  do
  PLACE(0)  PLACE(1)  PLACE(2)  PLACE(3)  PLACE(4)  PLACE(5)
  PLACE(6)  PLACE(7)  PLACE(8)  PLACE(9)  PLACE(10) PLACE(11)
  PLACE(12) PLACE(13) PLACE(14) PLACE(15) PLACE(16) PLACE(17)
  PLACE(18) PLACE(19) PLACE(20) PLACE(21) PLACE(22) PLACE(23)
  PLACE(24) PLACE(25) PLACE(26) PLACE(27) PLACE(28) PLACE(29)
  PLACE(30) PLACE(31) PLACE(32) PLACE(33) PLACE(34) PLACE(35)
  :: d_step { ply < DEPTH && !over && !mover_can -> pass() }
  od
}
