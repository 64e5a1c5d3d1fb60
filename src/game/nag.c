/* SPDX-License-Identifier: MIT */
/* The NAG table (PGN §8.2.4 and §10): $0-$139 with the standard's meanings, $140-$255 with the
 * ChessPad meanings and "Not defined" elsewhere, as the user's NAG document lists them (shared
 * seed 003, the Wikipedia article "Numeric Annotation Glyphs", CC BY-SA; its typos are fixed as
 * docs/design.md says). Static constant data only; the look-ups scan short tables. */
#include "pgnkit/nag.h"

#include <assert.h>
#include <string.h>

#define NUL PGN_NAG_NULL
#define MOV PGN_NAG_MOVE
#define POS PGN_NAG_POSITION
#define TIM PGN_NAG_TIME
#define NON PGN_NAG_NONSTANDARD

/* Rows: number, class, meaning, symbol, its code points, ASCII spelling, used by. */
#define R(n, c, meaning, symbol, cp0, cp1, ascii, by)                                              \
    { n, c, meaning, symbol, {cp0, cp1}, ascii, by }
static const pgn_nag_info table[256] = {
    R(0, NUL, "null annotation", "", 0, 0, "", ""),
    R(1, MOV, "good move (traditional \"!\") see also Nunn Convention for alternate meanings", "!",
      0x0021, 0, "!", ""),
    R(2, MOV, "poor move or mistake (traditional \"?\") (and Nunn Convention)", "?", 0x003F, 0, "?",
      ""),
    R(3, MOV, "very good or brilliant move (traditional \"!!\") (and Nunn Convention)",
      "\xE2\x80\xBC" /* ‼ */, 0x203C, 0, "!!", ""),
    R(4, MOV, "very poor move or blunder (traditional \"??\") (and Nunn Convention)",
      "\xE2\x81\x87" /* ⁇ */, 0x2047, 0, "??", ""),
    R(5, MOV, "speculative or interesting move (traditional \"!?\") (and Nunn Convention)",
      "\xE2\x81\x89" /* ⁉ */, 0x2049, 0, "!?", ""),
    R(6, MOV, "questionable or dubious move (traditional \"?!\") (and Nunn Convention)",
      "\xE2\x81\x88" /* ⁈ */, 0x2048, 0, "?!", ""),
    R(7, MOV, "forced move (all others lose quickly) or only move", "\xE2\x96\xA1" /* □ */, 0x25A1,
      0, "", ""),
    R(8, MOV, "singular move (no reasonable alternatives)", "", 0, 0, "", ""),
    R(9, MOV, "worst move", "", 0, 0, "", ""),
    R(10, POS, "drawish position or even", "=", 0x003D, 0, "=", ""),
    R(11, POS, "equal chances, quiet position", "", 0, 0, "", ""),
    R(12, POS, "equal chances, active position", "", 0, 0, "", ""),
    R(13, POS, "unclear position", "\xE2\x88\x9E" /* ∞ */, 0x221E, 0, "", ""),
    R(14, POS, "White has a slight advantage", "\xE2\xA9\xB2" /* ⩲ */, 0x2A72, 0, "+/=", ""),
    R(15, POS, "Black has a slight advantage", "\xE2\xA9\xB1" /* ⩱ */, 0x2A71, 0, "=/+", ""),
    R(16, POS, "White has a moderate advantage", "\xC2\xB1" /* ± */, 0x00B1, 0, "+/-", ""),
    R(17, POS, "Black has a moderate advantage", "\xE2\x88\x93" /* ∓ */, 0x2213, 0, "-/+", ""),
    R(18, POS, "White has a decisive advantage", "+\xE2\x88\x92" /* +− */, 0x002B, 0x2212, "+-",
      ""),
    R(19, POS, "Black has a decisive advantage", "\xE2\x88\x92+" /* −+ */, 0x2212, 0x002B, "-+",
      ""),
    R(20, POS, "White has a crushing advantage (Black should resign)", "", 0, 0, "", ""),
    R(21, POS, "Black has a crushing advantage (White should resign)", "", 0, 0, "", ""),
    R(22, POS, "White is in zugzwang", "\xE2\xA8\x80" /* ⨀ */, 0x2A00, 0, "", ""),
    R(23, POS, "Black is in zugzwang", "\xE2\xA8\x80" /* ⨀ */, 0x2A00, 0, "", ""),
    R(24, POS, "White has a slight space advantage", "", 0, 0, "", ""),
    R(25, POS, "Black has a slight space advantage", "", 0, 0, "", ""),
    R(26, POS, "White has a moderate space advantage", "", 0, 0, "", ""),
    R(27, POS, "Black has a moderate space advantage", "", 0, 0, "", ""),
    R(28, POS, "White has a decisive space advantage", "", 0, 0, "", ""),
    R(29, POS, "Black has a decisive space advantage", "", 0, 0, "", ""),
    R(30, POS, "White has a slight time (development) advantage", "", 0, 0, "", ""),
    R(31, POS, "Black has a slight time (development) advantage", "", 0, 0, "", ""),
    R(32, POS, "White has a moderate time (development) advantage", "\xE2\x9F\xB3" /* ⟳ */, 0x27F3,
      0, "", ""),
    R(33, POS, "Black has a moderate time (development) advantage", "\xE2\x9F\xB3" /* ⟳ */, 0x27F3,
      0, "", ""),
    R(34, POS, "White has a decisive time (development) advantage", "", 0, 0, "", ""),
    R(35, POS, "Black has a decisive time (development) advantage", "", 0, 0, "", ""),
    R(36, POS, "White has the initiative", "\xE2\x86\x92" /* → */, 0x2192, 0, "", ""),
    R(37, POS, "Black has the initiative", "\xE2\x86\x92" /* → */, 0x2192, 0, "", ""),
    R(38, POS, "White has a lasting initiative", "", 0, 0, "", ""),
    R(39, POS, "Black has a lasting initiative", "", 0, 0, "", ""),
    R(40, POS, "White has the attack", "\xE2\x86\x91" /* ↑ */, 0x2191, 0, "", ""),
    R(41, POS, "Black has the attack", "\xE2\x86\x91" /* ↑ */, 0x2191, 0, "", ""),
    R(42, POS, "White has insufficient compensation for material deficit", "", 0, 0, "", ""),
    R(43, POS, "Black has insufficient compensation for material deficit", "", 0, 0, "", ""),
    R(44, POS, "White has sufficient compensation for material deficit", "", 0, 0, "", ""),
    R(45, POS, "Black has sufficient compensation for material deficit", "", 0, 0, "", ""),
    R(46, POS, "White has more than adequate compensation for material deficit", "", 0, 0, "", ""),
    R(47, POS, "Black has more than adequate compensation for material deficit", "", 0, 0, "", ""),
    R(48, POS, "White has a slight center control advantage", "", 0, 0, "", ""),
    R(49, POS, "Black has a slight center control advantage", "", 0, 0, "", ""),
    R(50, POS, "White has a moderate center control advantage", "", 0, 0, "", ""),
    R(51, POS, "Black has a moderate center control advantage", "", 0, 0, "", ""),
    R(52, POS, "White has a decisive center control advantage", "", 0, 0, "", ""),
    R(53, POS, "Black has a decisive center control advantage", "", 0, 0, "", ""),
    R(54, POS, "White has a slight kingside control advantage", "", 0, 0, "", ""),
    R(55, POS, "Black has a slight kingside control advantage", "", 0, 0, "", ""),
    R(56, POS, "White has a moderate kingside control advantage", "", 0, 0, "", ""),
    R(57, POS, "Black has a moderate kingside control advantage", "", 0, 0, "", ""),
    R(58, POS, "White has a decisive kingside control advantage", "", 0, 0, "", ""),
    R(59, POS, "Black has a decisive kingside control advantage", "", 0, 0, "", ""),
    R(60, POS, "White has a slight queenside control advantage", "", 0, 0, "", ""),
    R(61, POS, "Black has a slight queenside control advantage", "", 0, 0, "", ""),
    R(62, POS, "White has a moderate queenside control advantage", "", 0, 0, "", ""),
    R(63, POS, "Black has a moderate queenside control advantage", "", 0, 0, "", ""),
    R(64, POS, "White has a decisive queenside control advantage", "", 0, 0, "", ""),
    R(65, POS, "Black has a decisive queenside control advantage", "", 0, 0, "", ""),
    R(66, POS, "White has a vulnerable first rank", "", 0, 0, "", ""),
    R(67, POS, "Black has a vulnerable first rank", "", 0, 0, "", ""),
    R(68, POS, "White has a well protected first rank", "", 0, 0, "", ""),
    R(69, POS, "Black has a well protected first rank", "", 0, 0, "", ""),
    R(70, POS, "White has a poorly protected king", "", 0, 0, "", ""),
    R(71, POS, "Black has a poorly protected king", "", 0, 0, "", ""),
    R(72, POS, "White has a well protected king", "", 0, 0, "", ""),
    R(73, POS, "Black has a well protected king", "", 0, 0, "", ""),
    R(74, POS, "White has a poorly placed king", "", 0, 0, "", ""),
    R(75, POS, "Black has a poorly placed king", "", 0, 0, "", ""),
    R(76, POS, "White has a well placed king", "", 0, 0, "", ""),
    R(77, POS, "Black has a well placed king", "", 0, 0, "", ""),
    R(78, POS, "White has a very weak pawn structure", "", 0, 0, "", ""),
    R(79, POS, "Black has a very weak pawn structure", "", 0, 0, "", ""),
    R(80, POS, "White has a moderately weak pawn structure", "", 0, 0, "", ""),
    R(81, POS, "Black has a moderately weak pawn structure", "", 0, 0, "", ""),
    R(82, POS, "White has a moderately strong pawn structure", "", 0, 0, "", ""),
    R(83, POS, "Black has a moderately strong pawn structure", "", 0, 0, "", ""),
    R(84, POS, "White has a very strong pawn structure", "", 0, 0, "", ""),
    R(85, POS, "Black has a very strong pawn structure", "", 0, 0, "", ""),
    R(86, POS, "White has poor knight placement", "", 0, 0, "", ""),
    R(87, POS, "Black has poor knight placement", "", 0, 0, "", ""),
    R(88, POS, "White has good knight placement", "", 0, 0, "", ""),
    R(89, POS, "Black has good knight placement", "", 0, 0, "", ""),
    R(90, POS, "White has poor bishop placement", "", 0, 0, "", ""),
    R(91, POS, "Black has poor bishop placement", "", 0, 0, "", ""),
    R(92, POS, "White has good bishop placement", "", 0, 0, "", ""),
    R(93, POS, "Black has good bishop placement", "", 0, 0, "", ""),
    R(94, POS, "White has poor rook placement", "", 0, 0, "", ""),
    R(95, POS, "Black has poor rook placement", "", 0, 0, "", ""),
    R(96, POS, "White has good rook placement", "", 0, 0, "", ""),
    R(97, POS, "Black has good rook placement", "", 0, 0, "", ""),
    R(98, POS, "White has poor queen placement", "", 0, 0, "", ""),
    R(99, POS, "Black has poor queen placement", "", 0, 0, "", ""),
    R(100, POS, "White has good queen placement", "", 0, 0, "", ""),
    R(101, POS, "Black has good queen placement", "", 0, 0, "", ""),
    R(102, POS, "White has poor piece coordination", "", 0, 0, "", ""),
    R(103, POS, "Black has poor piece coordination", "", 0, 0, "", ""),
    R(104, POS, "White has good piece coordination", "", 0, 0, "", ""),
    R(105, POS, "Black has good piece coordination", "", 0, 0, "", ""),
    R(106, POS, "White has played the opening very poorly", "", 0, 0, "", ""),
    R(107, POS, "Black has played the opening very poorly", "", 0, 0, "", ""),
    R(108, POS, "White has played the opening poorly", "", 0, 0, "", ""),
    R(109, POS, "Black has played the opening poorly", "", 0, 0, "", ""),
    R(110, POS, "White has played the opening well", "", 0, 0, "", ""),
    R(111, POS, "Black has played the opening well", "", 0, 0, "", ""),
    R(112, POS, "White has played the opening very well", "", 0, 0, "", ""),
    R(113, POS, "Black has played the opening very well", "", 0, 0, "", ""),
    R(114, POS, "White has played the middlegame very poorly", "", 0, 0, "", ""),
    R(115, POS, "Black has played the middlegame very poorly", "", 0, 0, "", ""),
    R(116, POS, "White has played the middlegame poorly", "", 0, 0, "", ""),
    R(117, POS, "Black has played the middlegame poorly", "", 0, 0, "", ""),
    R(118, POS, "White has played the middlegame well", "", 0, 0, "", ""),
    R(119, POS, "Black has played the middlegame well", "", 0, 0, "", ""),
    R(120, POS, "White has played the middlegame very well", "", 0, 0, "", ""),
    R(121, POS, "Black has played the middlegame very well", "", 0, 0, "", ""),
    R(122, POS, "White has played the ending very poorly", "", 0, 0, "", ""),
    R(123, POS, "Black has played the ending very poorly", "", 0, 0, "", ""),
    R(124, POS, "White has played the ending poorly", "", 0, 0, "", ""),
    R(125, POS, "Black has played the ending poorly", "", 0, 0, "", ""),
    R(126, POS, "White has played the ending well", "", 0, 0, "", ""),
    R(127, POS, "Black has played the ending well", "", 0, 0, "", ""),
    R(128, POS, "White has played the ending very well", "", 0, 0, "", ""),
    R(129, POS, "Black has played the ending very well", "", 0, 0, "", ""),
    R(130, POS, "White has slight counterplay", "", 0, 0, "", ""),
    R(131, POS, "Black has slight counterplay", "", 0, 0, "", ""),
    R(132, POS, "White has moderate counterplay", "\xE2\x87\x86" /* ⇆ */, 0x21C6, 0, "", ""),
    R(133, POS, "Black has moderate counterplay", "\xE2\x87\x86" /* ⇆ */, 0x21C6, 0, "", ""),
    R(134, POS, "White has decisive counterplay", "", 0, 0, "", ""),
    R(135, POS, "Black has decisive counterplay", "", 0, 0, "", ""),
    R(136, TIM, "White has moderate time control pressure", "", 0, 0, "", ""),
    R(137, TIM, "Black has moderate time control pressure", "", 0, 0, "", ""),
    R(138, TIM, "White has severe time control pressure", "", 0, 0, "", ""),
    R(139, TIM, "Black has severe time control pressure", "", 0, 0, "", ""),
    R(140, NON, "With the idea...", "\xE2\x88\x86" /* ∆ */, 0x2206, 0, "", "ChessPad"),
    R(141, NON, "Aimed against...", "", 0, 0, "", "ChessPad"),
    R(142, NON, "Better is...", "\xE2\x8C\x93" /* ⌓ */, 0x2313, 0, "", "ChessPad"),
    R(143, NON, "Worse is...", "", 0, 0, "", "ChessPad"),
    R(144, NON, "Equivalent is...", "", 0, 0, "", "ChessPad"),
    R(145, NON, "Editorial comment", "RR", 0x0052, 0x0052, "RR", "ChessPad"),
    R(146, NON, "Novelty", "N", 0x004E, 0, "N", "ChessPad"),
    R(147, NON, "Not defined", "", 0, 0, "", ""),
    R(148, NON, "Not defined", "", 0, 0, "", ""),
    R(149, NON, "Not defined", "", 0, 0, "", ""),
    R(150, NON, "Not defined", "", 0, 0, "", ""),
    R(151, NON, "Not defined", "", 0, 0, "", ""),
    R(152, NON, "Not defined", "", 0, 0, "", ""),
    R(153, NON, "Not defined", "", 0, 0, "", ""),
    R(154, NON, "Not defined", "", 0, 0, "", ""),
    R(155, NON, "Not defined", "", 0, 0, "", ""),
    R(156, NON, "Not defined", "", 0, 0, "", ""),
    R(157, NON, "Not defined", "", 0, 0, "", ""),
    R(158, NON, "Not defined", "", 0, 0, "", ""),
    R(159, NON, "Not defined", "", 0, 0, "", ""),
    R(160, NON, "Not defined", "", 0, 0, "", ""),
    R(161, NON, "Not defined", "", 0, 0, "", ""),
    R(162, NON, "Not defined", "", 0, 0, "", ""),
    R(163, NON, "Not defined", "", 0, 0, "", ""),
    R(164, NON, "Not defined", "", 0, 0, "", ""),
    R(165, NON, "Not defined", "", 0, 0, "", ""),
    R(166, NON, "Not defined", "", 0, 0, "", ""),
    R(167, NON, "Not defined", "", 0, 0, "", ""),
    R(168, NON, "Not defined", "", 0, 0, "", ""),
    R(169, NON, "Not defined", "", 0, 0, "", ""),
    R(170, NON, "Not defined", "", 0, 0, "", ""),
    R(171, NON, "Not defined", "", 0, 0, "", ""),
    R(172, NON, "Not defined", "", 0, 0, "", ""),
    R(173, NON, "Not defined", "", 0, 0, "", ""),
    R(174, NON, "Not defined", "", 0, 0, "", ""),
    R(175, NON, "Not defined", "", 0, 0, "", ""),
    R(176, NON, "Not defined", "", 0, 0, "", ""),
    R(177, NON, "Not defined", "", 0, 0, "", ""),
    R(178, NON, "Not defined", "", 0, 0, "", ""),
    R(179, NON, "Not defined", "", 0, 0, "", ""),
    R(180, NON, "Not defined", "", 0, 0, "", ""),
    R(181, NON, "Not defined", "", 0, 0, "", ""),
    R(182, NON, "Not defined", "", 0, 0, "", ""),
    R(183, NON, "Not defined", "", 0, 0, "", ""),
    R(184, NON, "Not defined", "", 0, 0, "", ""),
    R(185, NON, "Not defined", "", 0, 0, "", ""),
    R(186, NON, "Not defined", "", 0, 0, "", ""),
    R(187, NON, "Not defined", "", 0, 0, "", ""),
    R(188, NON, "Not defined", "", 0, 0, "", ""),
    R(189, NON, "Not defined", "", 0, 0, "", ""),
    R(190, NON, "Not defined", "", 0, 0, "", ""),
    R(191, NON, "Not defined", "", 0, 0, "", ""),
    R(192, NON, "Not defined", "", 0, 0, "", ""),
    R(193, NON, "Not defined", "", 0, 0, "", ""),
    R(194, NON, "Not defined", "", 0, 0, "", ""),
    R(195, NON, "Not defined", "", 0, 0, "", ""),
    R(196, NON, "Not defined", "", 0, 0, "", ""),
    R(197, NON, "Not defined", "", 0, 0, "", ""),
    R(198, NON, "Not defined", "", 0, 0, "", ""),
    R(199, NON, "Not defined", "", 0, 0, "", ""),
    R(200, NON, "Not defined", "", 0, 0, "", ""),
    R(201, NON, "Not defined", "", 0, 0, "", ""),
    R(202, NON, "Not defined", "", 0, 0, "", ""),
    R(203, NON, "Not defined", "", 0, 0, "", ""),
    R(204, NON, "Not defined", "", 0, 0, "", ""),
    R(205, NON, "Not defined", "", 0, 0, "", ""),
    R(206, NON, "Not defined", "", 0, 0, "", ""),
    R(207, NON, "Not defined", "", 0, 0, "", ""),
    R(208, NON, "Not defined", "", 0, 0, "", ""),
    R(209, NON, "Not defined", "", 0, 0, "", ""),
    R(210, NON, "Not defined", "", 0, 0, "", ""),
    R(211, NON, "Not defined", "", 0, 0, "", ""),
    R(212, NON, "Not defined", "", 0, 0, "", ""),
    R(213, NON, "Not defined", "", 0, 0, "", ""),
    R(214, NON, "Not defined", "", 0, 0, "", ""),
    R(215, NON, "Not defined", "", 0, 0, "", ""),
    R(216, NON, "Not defined", "", 0, 0, "", ""),
    R(217, NON, "Not defined", "", 0, 0, "", ""),
    R(218, NON, "Not defined", "", 0, 0, "", ""),
    R(219, NON, "Not defined", "", 0, 0, "", ""),
    R(220, NON, "Diagram", "", 0, 0, "", "ChessPad"),
    R(221, NON, "Diagram (from Black)", "", 0, 0, "", "ChessPad"),
    R(222, NON, "Not defined", "", 0, 0, "", ""),
    R(223, NON, "Not defined", "", 0, 0, "", ""),
    R(224, NON, "Not defined", "", 0, 0, "", ""),
    R(225, NON, "Not defined", "", 0, 0, "", ""),
    R(226, NON, "Not defined", "", 0, 0, "", ""),
    R(227, NON, "Not defined", "", 0, 0, "", ""),
    R(228, NON, "Not defined", "", 0, 0, "", ""),
    R(229, NON, "Not defined", "", 0, 0, "", ""),
    R(230, NON, "Not defined", "", 0, 0, "", ""),
    R(231, NON, "Not defined", "", 0, 0, "", ""),
    R(232, NON, "Not defined", "", 0, 0, "", ""),
    R(233, NON, "Not defined", "", 0, 0, "", ""),
    R(234, NON, "Not defined", "", 0, 0, "", ""),
    R(235, NON, "Not defined", "", 0, 0, "", ""),
    R(236, NON, "Not defined", "", 0, 0, "", ""),
    R(237, NON, "Not defined", "", 0, 0, "", ""),
    R(238, NON, "Space advantage", "", 0, 0, "", "ChessPad"),
    R(239, NON, "File (columns on the chessboard labeled a-h)", "\xE2\x87\x94" /* ⇔ */, 0x21D4, 0,
      "", "ChessPad"),
    R(240, NON, "Diagonal", "\xE2\x87\x97" /* ⇗ */, 0x21D7, 0, "", "ChessPad"),
    R(241, NON, "Centre", "", 0, 0, "", "ChessPad"),
    R(242, NON, "King-side", "\xE2\x9F\xAB" /* ⟫ */, 0x27EB, 0, "", "ChessPad"),
    R(243, NON, "Queen-side", "\xE2\x9F\xAA" /* ⟪ */, 0x27EA, 0, "", "ChessPad"),
    R(244, NON, "Weak point", "\xE2\x9C\x95" /* ✕ */, 0x2715, 0, "", "ChessPad"),
    R(245, NON, "Ending", "\xE2\x8A\xA5" /* ⊥ */, 0x22A5, 0, "", "ChessPad"),
    R(246, NON, "Bishop pair", "", 0, 0, "", "ChessPad"),
    R(247, NON, "Opposite Bishops", "", 0, 0, "", "ChessPad"),
    R(248, NON, "Same Bishops", "", 0, 0, "", "ChessPad"),
    R(249, NON, "Connected pawns", "", 0, 0, "", "ChessPad"),
    R(250, NON, "Isolated pawns", "", 0, 0, "", "ChessPad"),
    R(251, NON, "Doubled pawns", "", 0, 0, "", "ChessPad"),
    R(252, NON, "Passed pawn", "", 0, 0, "", "ChessPad"),
    R(253, NON, "Pawn majority", "", 0, 0, "", "ChessPad"),
    R(254, NON, "With", "", 0, 0, "", "ChessPad"),
    R(255, NON, "Without", "", 0, 0, "", "ChessPad"),
};

#undef R
#undef NUL
#undef MOV
#undef POS
#undef TIM
#undef NON

/* How a glyph that stands for a White/Black pair picks its number. */
enum { FIXED, BY_MOVER, BY_SIDE_TO_MOVE };

typedef struct spelling {
    const char *text;
    uint8_t nag;  /* for a pair: the White number (even); Black's is nag + 1 */
    uint8_t rule; /* FIXED, BY_MOVER, BY_SIDE_TO_MOVE */
} spelling;

/* Every glyph read as a NAG: the table's symbols and ASCII spellings, and a few common variants
 * (Greek capital delta for ∆, the multiplication sign for ✕). */
static const spelling spellings[] = {
    {"!", 1, FIXED},
    {"?", 2, FIXED},
    {"!!", 3, FIXED},
    {"??", 4, FIXED},
    {"!?", 5, FIXED},
    {"?!", 6, FIXED},
    {"\xE2\x80\xBC", 3, FIXED}, /* ‼ */
    {"\xE2\x81\x87", 4, FIXED}, /* ⁇ */
    {"\xE2\x81\x89", 5, FIXED}, /* ⁉ */
    {"\xE2\x81\x88", 6, FIXED}, /* ⁈ */
    {"\xE2\x96\xA1", 7, FIXED}, /* □ */
    {"=", 10, FIXED},
    {"\xE2\x88\x9E", 13, FIXED}, /* ∞ */
    {"\xE2\xA9\xB2", 14, FIXED}, /* ⩲ */
    {"+/=", 14, FIXED},
    {"+=", 14, FIXED},
    {"\xE2\xA9\xB1", 15, FIXED}, /* ⩱ */
    {"=/+", 15, FIXED},
    {"=+", 15, FIXED},
    {"\xC2\xB1", 16, FIXED}, /* ± */
    {"+/-", 16, FIXED},
    {"\xE2\x88\x93", 17, FIXED}, /* ∓ */
    {"-/+", 17, FIXED},
    {"+\xE2\x88\x92", 18, FIXED}, /* +− (U+2212 minus) */
    {"+-", 18, FIXED},
    {"\xE2\x88\x92+", 19, FIXED}, /* −+ */
    {"-+", 19, FIXED},
    {"\xE2\xA8\x80", 22, BY_SIDE_TO_MOVE}, /* ⨀ zugzwang */
    {"\xE2\x9F\xB3", 32, BY_MOVER},        /* ⟳ development */
    {"\xE2\x86\x92", 36, BY_MOVER},        /* → initiative */
    {"\xE2\x86\x91", 40, BY_MOVER},        /* ↑ attack */
    {"\xE2\x87\x86", 132, BY_MOVER},       /* ⇆ counterplay */
    {"\xE2\x88\x86", 140, FIXED},          /* ∆ */
    {"\xCE\x94", 140, FIXED},              /* Δ (Greek) */
    {"\xE2\x8C\x93", 142, FIXED},          /* ⌓ */
    {"RR", 145, FIXED},
    {"N", 146, FIXED},
    {"\xE2\x87\x94", 239, FIXED}, /* ⇔ */
    {"\xE2\x87\x97", 240, FIXED}, /* ⇗ */
    {"\xE2\x9F\xAB", 242, FIXED}, /* ⟫ */
    {"\xE2\x9F\xAA", 243, FIXED}, /* ⟪ */
    {"\xE2\x9C\x95", 244, FIXED}, /* ✕ */
    {"\xC3\x97", 244, FIXED},     /* × */
    {"\xE2\x8A\xA5", 245, FIXED}, /* ⊥ */
};

const pgn_nag_info *pgn_nag_get(uint8_t nag) {
    return &table[nag];
}

int pgn_nag_from_symbol(const char *text, size_t len, pgn_color mover, unsigned *nag) {
    assert(nag != NULL && (text != NULL || len == 0));
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        const spelling *s = &spellings[i];
        if (strlen(s->text) == len && memcmp(s->text, text, len) == 0) {
            unsigned n = s->nag;
            if (s->rule == BY_MOVER) {
                n += mover == PGN_BLACK;
            } else if (s->rule == BY_SIDE_TO_MOVE) {
                n += mover == PGN_WHITE;
            }
            *nag = n;
            return 1;
        }
    }
    return 0;
}

const char *pgn_nag_write_symbol(uint8_t nag, pgn_color mover) {
    const char *s = nag >= 1 && nag <= 6 ? table[nag].ascii : table[nag].symbol;
    unsigned back;
    if (*s == '\0' || !pgn_nag_from_symbol(s, strlen(s), mover, &back) || back != nag) {
        return "";
    }
    return s;
}
