/*
 * regulation.c -- the five real regulations (spec docs/presets.md, the
 * originals in the seeds) as presets: every row with the clause it comes
 * from. The rules of play (natural limit, fouls, repetition, draw offers)
 * are the adjudicator presets of the same names; only their names are
 * kept here.
 *
 * Clause notation: 九(二) is article 九 item (二) of the main text;
 * "补充规定 N" is item N of the supplementary rules, which are the later
 * word: where they contradict the main text the value follows them and
 * the clause says "overrides ...".
 */
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "tourney.h"

#define NOT_STATED {"—", "not stated"}

static const char *const row_names[XQ_REG_NROWS] = {
  [XQ_REG_RULE_BOOK] = "rule book",
  [XQ_REG_ROUNDS] = "Swiss rounds",
  [XQ_REG_ROUND1] = "round 1",
  [XQ_REG_SCORING] = "scoring",
  [XQ_REG_TIME_SWISS] = "time, Swiss",
  [XQ_REG_KNOCKOUT] = "knockout",
  [XQ_REG_KO_GAMES] = "KO game / tie-breaks",
  [XQ_REG_TIEBREAKS] = "tie-break order",
  [XQ_REG_TB_FALLBACK] = "tie-break fallback",
  [XQ_REG_SHARED_PLACES] = "shared places",
  [XQ_REG_LATE] = "late -> forfeit",
  [XQ_REG_WITHDRAWAL] = "withdrawal",
  [XQ_REG_FLAG_FALL] = "flag fall",
  [XQ_REG_OTHER_RULES] = "other game rules",
  [XQ_REG_RECORDING] = "game recording",
  [XQ_REG_GROUPS] = "groups",
  [XQ_REG_TEAMS] = "teams",
  [XQ_REG_PRIZES] = "prizes",
  [XQ_REG_LUCKY] = "lucky prizes",
  [XQ_REG_ENTRY_LIMIT] = "entry limit",
};

static const xq_regulation regulations[] = {
  /* seeds/xinjiang-2018-urumqi.txt: the supplementary rules follow the
   * 仲裁 list at the end. */
  {
    .name = "xinjiang2018",
    .title = "2018年“源凯第一城”民族团结杯新疆象棋锦标赛 乌鲁木齐预选赛 (Urumqi)",
    .year = 2018,
    .file = "xinjiang-2018-urumqi.txt",
    .rules_preset = "xinjiang2018",
    .rows = {
      [XQ_REG_RULE_BOOK] = {"CXA 2011", "九(一): 《2011象棋竞赛规则》; 补充规定 (preamble) likewise"},
      [XQ_REG_ROUNDS] = {"11", "补充规定 一: 11轮积分编排制; 九(二): 共11轮"},
      [XQ_REG_ROUND1] = NOT_STATED,
      [XQ_REG_SCORING] = {"2/1/0", "补充规定 一: 胜2分，和1分，负0分"},
      [XQ_REG_TIME_SWISS] = {"25 min + 10 s",
                             "补充规定 一: 每走一步加10秒 (overrides 九(二): 25分钟加5秒)"},
      [XQ_REG_KNOCKOUT] = {"after round 8 the top 8, single elimination; places 9+ play rounds 9-11",
                           "九(二): 第8轮结束后取前8名进入淘汰赛…9名以后的棋手继续进行余下3轮"},
      [XQ_REG_KO_GAMES] = {"20 min + 5 s; draw -> colours swapped 10 min + 5 s; draw -> colours by lot, "
                           "Red 6 min + 3 s v Black 4 min + 3 s, draw = Black wins",
                           "九(二): 淘汰赛慢棋用时…换先加赛快棋…抽签决定先后手加赛超快棋…和棋黑胜"},
      [XQ_REG_TIEBREAKS] = {"points, progressive (PS), wins, fouls, games as Black",
                            "九(二): 执行《规则》14.3.2条款，依次比较积分、累进分、胜局、犯规、后走局数"},
      [XQ_REG_TB_FALLBACK] = {"drop round 1, then round 2, ... (drop-round)",
                              "九(二): 去除第一轮得分进行比较…再去除第二轮的积分，以此类推"},
      [XQ_REG_SHARED_PLACES] = {"no", "九(二): …以此类推，直至区分"},
      [XQ_REG_LATE] = {"15 min", "补充规定 二: 迟到超过15分钟，作弃权论处"},
      [XQ_REG_WITHDRAWAL] = NOT_STATED,
      [XQ_REG_FLAG_FALL] = {"loss, unless the move mated or stalemated",
                            "补充规定 十: 除出现将死、困毙外…按“超时”判负"},
      [XQ_REG_OTHER_RULES] = {"colours reversed: replay if found within 10 min, else the result stands; "
                              "press the clock with the moving hand; a piece dropped by accident is no move",
                              "补充规定 六, 七, 五"},
      [XQ_REG_RECORDING] = NOT_STATED,
      [XQ_REG_GROUPS] = {"open (born 1958-2001); seniors (born <= 1957, play with the open group); "
                         "juniors 8/10/12/14 by birth date, each an event of its own (七, 九(三), 十(一))",
                         "七(一)-(三); 十(一): 老年组和公开组同场竞技"},
      [XQ_REG_TEAMS] = {"by prefecture/city, 3 players, several teams allowed; sum of places "
                        "(lower first), tie: best individual place; top 6",
                        "十(一) 团体名次规定"},
      [XQ_REG_PRIZES] = {"<= 40% of entrants; > 100 entrants: top 40: 6000, 3500, 2500, 2000, 1100, "
                         "1000, 1000, 900, 800 x4, 500 x4, 350 x8, 300 x8, 200 x8; teams 1500, 800, "
                         "500, 300, 200, 200; juniors: 5000-10000 in all, table not given",
                         "十(一): 各组录取名次均按不高于40%的比例执行…录取前四十名; 团体名次规定"},
      [XQ_REG_LUCKY] = NOT_STATED,
      [XQ_REG_ENTRY_LIMIT] = {"150", "十一(一): 限报150人"},
    },
    .rounds = 11, .win_points = 2, .draw_points = 1,
    .ko_format = "xinjiang", .ko_size = 8, .ko_after_round = 8,
    .tb_order = "xinjiang", .tb_fallback = XQ_REG_FALLBACK_DROP_ROUND,
    .late_minutes = 15, .team_size = 3, .prize_cap_pct = 40, .entry_limit = 150,
  },
  /* seeds/burqin-2018-kanas-cup.txt: 补充规定细则 1-10 at the end. */
  {
    .name = "burqin2018",
    .title = "2018年中国·新疆·布尔津首届“喀纳斯杯”象棋公开赛 (Kanas Cup)",
    .year = 2018,
    .file = "burqin-2018-kanas-cup.txt",
    .rules_preset = "burqin2018",
    .rows = {
      [XQ_REG_RULE_BOOK] = {"CXA 2011", "五(一): 执行《象棋竞赛规则》(2011)"},
      [XQ_REG_ROUNDS] = {"9", "五(三): 比赛9轮; 补充规定 1: 9轮积分编排制"},
      [XQ_REG_ROUND1] = NOT_STATED,
      [XQ_REG_SCORING] = {"2/1/0 (SP98 shows 1-0.5-0)", "补充规定 1: 胜和负计分采用210制（SP98软件1-0.5-0）"},
      [XQ_REG_TIME_SWISS] = {"25 min + 5 s on clocks with increment, else 30 min sudden death (一赛两时制)",
                             "补充规定 2: 一赛两时制 (overrides 五(四): 30分钟包干)"},
      [XQ_REG_KNOCKOUT] = NOT_STATED,
      [XQ_REG_KO_GAMES] = NOT_STATED,
      [XQ_REG_TIEBREAKS] = {"points, OS, PS, wins, Black wins, fouls",
                            "补充规定 5: 积分、对手分、累进分、赢棋数、后手胜局数、犯规次数 "
                            "(overrides 五(七), which also counts games as Black before fouls)"},
      [XQ_REG_TB_FALLBACK] = {"previous round's result, then the one before",
                              "补充规定 5: 比较上一轮成绩; 五(七): 比较前一轮成绩，以此类推"},
      [XQ_REG_SHARED_PLACES] = {"no", "五(七): 所有名次均不并列; 补充规定 5: 各组名次不并列"},
      [XQ_REG_LATE] = {"15 min", "补充规定 8: 每轮迟到15分钟者，以弃权判负"},
      [XQ_REG_WITHDRAWAL] = NOT_STATED,
      [XQ_REG_FLAG_FALL] = {"loss (both time systems)", "补充规定 2: 两制均超时判负"},
      [XQ_REG_OTHER_RULES] = {"displaced pieces: restore in own time, else +2 min to the opponent, loss if "
                              "not restorable; phone rings or > 10 s looking at it: loss; stopping the "
                              "clock unasked: 1st warning, 2nd loss; a result agreed without play, "
                              "bought or given games: both lose the round (result --)",
                              "补充规定 7, 9 (overrides 九(一): 判犯规一次), 2; 补充规定 8: 严禁不经比赛无端媾和…"
                              "违者取消双方当轮次成绩"},
      [XQ_REG_RECORDING] = {"from round 4 the winners on boards 1-10 (draw: Red) enter the game; "
                            "each one missing = 1 foul",
                            "五(六): 从第四轮起，前十台棋手获胜方必须进行电脑录谱…漏录一次记犯规一次"},
      [XQ_REG_GROUPS] = {"open (under 70); local: Burqin players by ID card, ranked among themselves; "
                         "juniors (encouragement prizes)",
                         "四(一); 六(三); 六(六)"},
      [XQ_REG_TEAMS] = {"Altay region teams, 3 players; sum of points (higher first), tie: best "
                        "individual place; fewer than 3: no team score; top 3",
                        "四(二); 五(七); 六(二); 补充规定 5"},
      [XQ_REG_PRIZES] = {"top 16: 5000, 2000, 1000, 800, 600, 500, 400, 400, 300 x4, 200 x4; teams 1800, "
                         "1500, 1200; Burqin players top 6: 1000, 600, 500, 300, 200, 200 (may be won "
                         "twice)",
                         "六(四)1-3; 六(三): 奖金可重复领取"},
      [XQ_REG_LUCKY] = {"places 18, 28, 38, ... (100 each)",
                        "六(六): 成绩排名18、28、38、48…等名次者获得幸运奖奖励一百元"},
      [XQ_REG_ENTRY_LIMIT] = NOT_STATED,
    },
    .rounds = 9, .win_points = 2, .draw_points = 1,
    .tb_order = "burqin", .tb_fallback = XQ_REG_FALLBACK_PREVIOUS_ROUND,
    .late_minutes = 15, .team_size = 3,
    .lucky_start = 18, .lucky_step = 10, .lucky_amount = 100,
  },
  /* seeds/shaanxi-2019-dameishiyao-cup.txt; 十一: 比赛最终以裁判长的补充
   * 规定为准. */
  {
    .name = "shaanxi2019",
    .title = "2019年全国象棋业余棋王赛陕西赛区预选赛“大美石窑杯”象棋公开赛 (Dameishiyao Cup)",
    .year = 2019,
    .file = "shaanxi-2019-dameishiyao-cup.txt",
    .rules_preset = "shaanxi2019",
    .rows = {
      [XQ_REG_RULE_BOOK] = {"CXA 2011", "十(一); 补充规定 一: 执行《2011象棋竞赛规则》"},
      [XQ_REG_ROUNDS] = {"9", "补充规定 一: 比赛轮次定为9轮 (十(二)1: 暂定九轮)"},
      [XQ_REG_ROUND1] = {"drawn numbers, adjacent: 1-2, 4-3, 5-6, 8-7 (odd board: smaller number is "
                         "Red; even board: larger is Red)",
                         "补充规定 三.1-2: 以抽签方式排出运动员序号; 首轮以临近配对的方法进行编对"},
      [XQ_REG_SCORING] = {"2/1/0 (implied)", "not stated: implied by 积分编排 under the rule book (十(一))"},
      [XQ_REG_TIME_SWISS] = {"30 min + 10 s", "十(二)1; 补充规定 四.1: 每方基本用时30分钟，每走一步加10秒"},
      [XQ_REG_KNOCKOUT] = {"village-king (乡村棋王) sub-event only, the open event has none: a knockout "
                           "without a Swiss, free entry; positions drawn by lot, byes to a power of two; a "
                           "knockout per township (one day each), the two winners play the final for the "
                           "king (simulate --group village)",
                           "十(二)2: 乡村棋王赛淘汰制; 九: 免报名费; 十二(二)5: 两日两乡镇第一名总决出来棋王"},
      [XQ_REG_KO_GAMES] = {"games 20 min, then 5 min sudden death (a 25 min clock); final 20 min + 10 s, "
                           "colours by lot; draw -> swapped 10 min + 5 s; draw -> lot, Red 6 min + 3 s v Black "
                           "4 min + 3 s, draw = Black wins (the final's tie-breaks for every match)",
                           "十(二)2: 双方用时超过20分钟后加比赛棋钟5分包干; 总决赛抽签定先20分+10秒…和棋黑胜"},
      [XQ_REG_TIEBREAKS] = {"points, OS, wins, fouls, direct encounter, games as Black",
                            "补充规定 八: 积分、对手分、胜局、犯规、直胜、后走局数"},
      [XQ_REG_TB_FALLBACK] = {"the progressive-score (累进分) method",
                              "补充规定 八: 如仍不能区分，则以累近分的区分方法执行"},
      [XQ_REG_SHARED_PLACES] = {"no", "补充规定 八: 录取的名次均不并列"},
      [XQ_REG_LATE] = {"10 min", "补充规定 四.1: 开赛10分钟后棋手未到场就座者按弃权论处"},
      [XQ_REG_WITHDRAWAL] = {"two forfeits in a row -> not paired again",
                             "补充规定 四.1: 连续弃权两轮者不再编排"},
      [XQ_REG_FLAG_FALL] = NOT_STATED,
      [XQ_REG_OTHER_RULES] = {"phone rings: 2 fouls; answering it: loss; a piece dropped by accident: a "
                              "reminder, no penalty; refusing to play (罢赛): forfeit",
                              "补充规定 九.2, 七.4; 九.4: 不得以任何借口进行罢赛，无论任何理由均按弃权论"},
      [XQ_REG_RECORDING] = {"from round 2, boards 1-10, the winner (draw: Red) enters the game; no score sheets",
                            "补充规定 六.1-2"},
      [XQ_REG_GROUPS] = {"open; village-king sub-event (Yuyang, Jia county, Shenmu players never top 8 "
                         "of a county event)",
                         "九; 十(二)2"},
      [XQ_REG_TEAMS] = NOT_STATED,
      [XQ_REG_PRIZES] = {"top 25: 20000, 10000, 5000, 3000, 2000, 1500, 1300, 1000, 700 x4, 500 x6, 200 x7; "
                         "Yulin players top 8: 1500, 1200, 1000, 800, 500, 300 x3; Jia county top 6: 1000, "
                         "800, 500, 300 x3 (both may be won twice); village king, each township: 300, 200, "
                         "100, 50 x3, the king +200",
                         "十二(一); 十二(二)1-3: 可重复拿奖; 十二(二)5: 乡村棋王奖…棋王另加200元"},
      [XQ_REG_LUCKY] = {"places 29, 39, ... 119 (100 each; not for players who withdrew or forfeited 2+ rounds)",
                        "十二(二)4: 退赛和弃权两轮或以上的没有奖励"},
      [XQ_REG_ENTRY_LIMIT] = {"100", "十三(一)1: 公开赛限报100人"},
    },
    .rounds = 9, .round1_adjacent = 1, .win_points = 2, .draw_points = 1,
    .ko_format = "shaanxi", /* the village-king event's format; the open event has no knockout */
    .tb_order = "shaanxi", .tb_fallback = XQ_REG_FALLBACK_PROGRESSIVE,
    .late_minutes = 10, .withdraw_after = 2, .withdraw_consecutive = 1,
    .lucky_start = 29, .lucky_step = 10, .lucky_last = 119, .lucky_amount = 100,
    .lucky_active_only = 1, .entry_limit = 100,
  },
  /* seeds/wujiaqu-2024-tianli-cup.txt: main text from article 九, then
   * 补充规定 一.1-14, 二, 三. */
  {
    .name = "wujiaqu2024",
    .title = "新疆五家渠市“天力建工”杯象棋公开赛 (Tianli Cup)",
    .year = 2024,
    .file = "wujiaqu-2024-tianli-cup.txt",
    .rules_preset = "wujiaqu2024",
    .rows = {
      [XQ_REG_RULE_BOOK] = {"CXA 2020", "九(一): 执行2020版《象棋竞赛规则》"},
      [XQ_REG_ROUNDS] = {"13", "九(一): 积分编排13轮赛制"},
      [XQ_REG_ROUND1] = NOT_STATED,
      [XQ_REG_SCORING] = {"2/1/0", "九(三); 补充规定 二: 每胜一局记2分，和棋各记1分"},
      [XQ_REG_TIME_SWISS] = {"20 min + 5 s", "九(二): 公开组用时20分钟加5秒"},
      [XQ_REG_KNOCKOUT] = {"after round 10 the top 8: 1-8, 2-7, 3-6, 4-5, colours by lot; the rest play "
                           "rounds 11-13; first-round losers placed by earlier results",
                           "九(一): 第十轮结束后，排名前八的棋手进入交叉淘汰赛…第一轮淘汰的人员比较上一轮成绩区分名次"},
      [XQ_REG_KO_GAMES] = {"20 min + 5 s; draw -> colours swapped rapid 10 min + 3 s; then 5 min + 3 s "
                           "until decided",
                           "九(一): 加赛顺序为换先快棋、附加赛，分出胜负后比赛结束"},
      [XQ_REG_TIEBREAKS] = {"points, OS, wins, fouls, direct encounter, games as Black",
                            "九(五)1: 执行2020版规则14.3.1条款，依次比较积分、对手分、胜局、犯规、直胜、后走局数"},
      [XQ_REG_TB_FALLBACK] = {"previous round's result, then the one before",
                              "九(五)1: 如无法区分，则比较前一轮成绩，直至区分"},
      [XQ_REG_SHARED_PLACES] = {"no (implied)", "九(五)1: …直至区分 (implied)"},
      [XQ_REG_LATE] = {"10 min", "九(二); 补充规定 一.3: 迟到10分钟未到场就坐者，按弃权论"},
      [XQ_REG_WITHDRAWAL] = {"two absences -> withdrawn", "补充规定 一.14: 凡两轮未到者，按退赛处理"},
      [XQ_REG_FLAG_FALL] = {"loss", "九(二): 超时判负"},
      [XQ_REG_OTHER_RULES] = {"piece left between two points: foul; phone brought in: foul; leaving the "
                              "seat to watch: foul; starting or stopping the clock oneself: foul; colours "
                              "reversed: the result stands; leaving the table without the arbiter's leave: "
                              "forfeit; a result agreed without play: both forfeit (result --)",
                              "补充规定 一.5, 一.1, 三.1, 一.10, 一.4; 十四.2: 经裁判允许方可离桌…否则按弃权处理；"
                              "未经实际对弈的协商比赛结果，双方都按弃权处理"},
      [XQ_REG_RECORDING] = {"from round 4, boards 1-10, the winner (draw: Red) enters the game; refusing = 1 foul",
                            "补充规定 一.12"},
      [XQ_REG_GROUPS] = {"open; local (本地组)", "十(一), 十(二)"},
      [XQ_REG_TEAMS] = NOT_STATED,
      [XQ_REG_PRIZES] = {"total 151000 after tax; the table is not given",
                         "十: 奖金总计151000元 (十(一), 十(二) are empty)"},
      [XQ_REG_LUCKY] = NOT_STATED,
      [XQ_REG_ENTRY_LIMIT] = NOT_STATED,
    },
    .rounds = 13, .win_points = 2, .draw_points = 1,
    .ko_format = "wujiaqu", .ko_size = 8, .ko_after_round = 10,
    .tb_order = "wujiaqu", .tb_fallback = XQ_REG_FALLBACK_PREVIOUS_ROUND,
    .late_minutes = 10, .withdraw_after = 2,
  },
  /* seeds/tangshan-2018-qixie-cup.txt: numbered articles, no supplement. */
  {
    .name = "tangshan2018",
    .title = "第三届“棋协杯”2018年唐山市象棋锦标赛 (Qixie Cup)",
    .year = 2018,
    .file = "tangshan-2018-qixie-cup.txt",
    .rules_preset = "tangshan2018",
    .rows = {
      [XQ_REG_RULE_BOOK] = {"CXA 2011", "八.1: 《象棋竞赛规则》(2011版)"},
      [XQ_REG_ROUNDS] = {"7 or 9 by entries; open group: 9", "八.2: 7或9轮积分编排制，视参赛人数而定; 八.3"},
      [XQ_REG_ROUND1] = {"by Tangshan city rating, adjacent; the same club may meet",
                         "八.2: 首轮按照唐山市象棋等级分前后对阵，同单位可遇"},
      [XQ_REG_SCORING] = {"2/1/0", "八.7: 胜记2分，和各记1分，负记0分"},
      [XQ_REG_TIME_SWISS] = {"20 min + 5 s (the other groups; the open group's 预赛 not stated: the same, as "
                             "its final's 慢棋)",
                             "八.4: 其他组别每方基本用时为20分钟，每走一步加5秒; 八.3: 决赛慢棋每方基本用时20分钟，"
                             "每走一步加5秒"},
      [XQ_REG_KNOCKOUT] = {"open group: after 9 rounds the top 4; #1 picks its semi-final opponent from #3/#4 "
                           "and the colours, #2 the colours of the other semi-final; final and 3rd-place match",
                           "八.3: 前4名晋级决赛…第1名决定下半区对手…胜者争夺冠军，负者争夺第三名"},
      [XQ_REG_KO_GAMES] = {"20 min + 5 s; draw -> Red 6 min + 5 s v Black 4 min + 5 s, draw = Black wins",
                           "八.3: 慢棋每方基本用时20分钟…加赛超快棋…和棋黑胜"},
      [XQ_REG_TIEBREAKS] = {"points, PS, OS, wins, fouls, games as Black (后局)",
                            "八.8: 积分…累进分、对手分、胜局、犯规、后局"},
      [XQ_REG_TB_FALLBACK] = {"earlier rounds' results (前轮成绩)", "八.8: …前轮成绩，直至名次区分"},
      [XQ_REG_SHARED_PLACES] = {"no (implied)", "八.8: 直至名次区分 (implied)"},
      [XQ_REG_LATE] = NOT_STATED,
      [XQ_REG_WITHDRAWAL] = NOT_STATED,
      [XQ_REG_FLAG_FALL] = NOT_STATED,
      [XQ_REG_OTHER_RULES] = {"phone rings: foul; again or a call: loss; cheating, bought or given games: "
                              "results cancelled",
                              "十一"},
      [XQ_REG_RECORDING] = {"the other groups: not recorded; the open group: not stated",
                            "八.4: 其他组别…双方棋手不作记录"},
      [XQ_REG_GROUPS] = {"open (any age, either sex); seniors (born <= 1957); juniors (2002-2006); children "
                         "(>= 2007); men and women ranked apart, a women's section of < 3 merges into the men's",
                         "六.1-4; 九.3-4: 女子组不足三人取消该组，混入男子组计算成绩"},
      [XQ_REG_TEAMS] = {"open group, 4 players by county/district or employer; sum of places (lower "
                        "first), tie: best place; fewer than 4: no team score; top 6",
                        "六.5; 八.8; 九.5"},
      [XQ_REG_PRIZES] = {"open top 16: 3000, 2500, 2000, 1500, 1000, 800, 600, 500, 300 x4, 200 x4; "
                         "seniors top 6: 600, 500, 400, 300, 200, 200; juniors and children top 6 each: "
                         "goods and certificates (no amounts); teams top 6: cup and diplomas",
                         "九.2; 九.3; 九.4; 九.5"},
      [XQ_REG_LUCKY] = NOT_STATED,
      [XQ_REG_ENTRY_LIMIT] = {"180", "十.1: 场地有限，限报180人"},
    },
    .rounds = 9, .round1_adjacent = 1, .win_points = 2, .draw_points = 1,
    .ko_format = "tangshan", .ko_size = 4, .ko_after_round = 9, .ko_top_chooses = 1,
    .tb_order = "tangshan", .tb_fallback = XQ_REG_FALLBACK_PREVIOUS_ROUND,
    .team_size = 4, .entry_limit = 180,
  },
};
#define NREGULATIONS ((int)(sizeof regulations / sizeof regulations[0]))

int xq_regulation_find(const char *name, const xq_regulation **out)
{
  if (!name || !out) return XQ_EINVAL;
  for (int i = 0; i < NREGULATIONS; i++)
    if (!strcasecmp(regulations[i].name, name)) {
      *out = &regulations[i];
      return XQ_OK;
    }
  return XQ_EINVAL;
}

const xq_regulation *xq_regulation_titled(const char *title)
{
  for (int i = 0; title && i < NREGULATIONS; i++)
    if (!strcmp(regulations[i].title, title)) return &regulations[i];
  return NULL;
}

const xq_regulation *xq_regulation_at(int i)
{
  return i >= 0 && i < NREGULATIONS ? &regulations[i] : NULL;
}

const char *xq_regulation_row_name(int row)
{
  return row >= 0 && row < XQ_REG_NROWS ? row_names[row] : NULL;
}
